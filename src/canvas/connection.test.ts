import { describe, expect, it } from 'vitest';
import { canConnect } from './connection';
import { edge, flow, node, registry, sampleFlow } from './plugins.fixture';

const check = (c: Parameters<typeof canConnect>[2], doc = sampleFlow()) => canConnect(doc, registry, c);
const reason = (c: Parameters<typeof canConnect>[2], doc = sampleFlow()) => {
  const r = check(c, doc);
  return r.ok ? 'ok' : r.reason;
};

describe('canConnect', () => {
  it('accepts a plain new edge', () => {
    expect(check({ source: 'a', target: 'end' })).toEqual({ ok: true });
  });

  it('refuses unknown nodes and a self-loop', () => {
    expect(reason({ source: 'a', target: 'ghost' })).toBe('nodeMissing');
    expect(reason({ source: 'a', target: 'a' })).toBe('selfLoop');
  });

  it('refuses an edge into a kind without a target handle (start, a container start)', () => {
    expect(reason({ source: 'a', target: 'start' })).toBe('targetClosed');
    expect(reason({ source: 'inner', target: 'loop-start' })).toBe('targetClosed');
  });

  it('refuses a handle the source does not have', () => {
    expect(reason({ source: 'end', target: 'a' })).toBe('sourceClosed');
    expect(reason({ source: 'a', target: 'end', sourceHandle: 'case9' })).toBe('sourceClosed');
  });

  it('accepts a branch handle the node declares', () => {
    const doc = flow({ nodes: [node('start', 'start'), node('br', 'branch'), node('x', 'echo')], edges: [edge('start', 'br')] });
    expect(reason({ source: 'br', target: 'x', sourceHandle: 'case1' }, doc)).toBe('ok');
    expect(reason({ source: 'br', target: 'x', sourceHandle: 'else' }, doc)).toBe('ok');
  });

  it('refuses a duplicate edge', () => {
    expect(reason({ source: 'a', target: 'b' })).toBe('duplicate');
    expect(reason({ source: 'a', target: 'b', sourceHandle: 'source', targetHandle: 'target' })).toBe('duplicate');
  });

  it('refuses edges across a container boundary', () => {
    expect(reason({ source: 'a', target: 'inner' })).toBe('crossContainer');
    expect(reason({ source: 'inner', target: 'end' })).toBe('crossContainer');
    expect(reason({ source: 'loop', target: 'inner' })).toBe('crossContainer');
  });

  it('refuses a cycle, direct or long', () => {
    expect(reason({ source: 'b', target: 'a' })).toBe('cycle');
    const doc = flow({
      nodes: [node('start', 'start'), node('x', 'echo'), node('y', 'echo'), node('z', 'echo')],
      edges: [edge('start', 'x'), edge('x', 'y'), edge('y', 'z')],
    });
    expect(reason({ source: 'z', target: 'x' }, doc)).toBe('cycle');
    expect(reason({ source: 'x', target: 'z' }, doc)).toBe('ok');
  });

  it('accepts a container on the main line (its body repeats without a cycle of edges)', () => {
    expect(reason({ source: 'b', target: 'loop' })).toBe('ok');
  });

  it('refuses nodes whose kind does not belong to the mode', () => {
    const doc = flow({ nodes: [node('start', 'start'), node('r', 'reply'), node('x', 'echo')], edges: [] });
    expect(reason({ source: 'start', target: 'r' }, doc)).toBe('modeNotAllowed');
    expect(reason({ source: 'r', target: 'x' }, doc)).toBe('modeNotAllowed');
    const chat = flow({ mode: 'chatflow', nodes: [node('start', 'start'), node('r', 'reply')] });
    expect(reason({ source: 'start', target: 'r' }, chat)).toBe('ok');
  });

  it('refuses nodes placed where their kind may not sit', () => {
    const doc = flow({
      nodes: [node('start', 'start'), node('loop', 'repeat'), node('ls', 'repeat-start', { parentId: 'loop' }), node('r', 'rooted', { parentId: 'loop' })],
    });
    expect(reason({ source: 'ls', target: 'r' }, doc)).toBe('placementNotAllowed');
  });
});
