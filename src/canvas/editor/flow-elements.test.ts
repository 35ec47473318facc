import { describe, expect, it } from 'vitest';
import { builtinPlugins } from '../builtin-plugins';
import type { FlowNode } from '../../../schemas/flow';
import { createNodeRegistry } from '../../plugin-sdk';
import { FlowElementCache, overviewBox } from './flow-elements';

const registry = createNodeRegistry(builtinPlugins);
const node = (id: string, kind: string, config: Record<string, unknown> = {}): FlowNode => ({ id, kind, kindVersion: 1, title: '', position: { x: 0, y: 0 }, config });
const cases = [
  { id: 'c1', logical_operator: 'and', conditions: [] },
  { id: 'c2', logical_operator: 'and', conditions: [] },
];

describe('overviewBox', () => {
  it('gives a step its overview size and handles: the header alone, or a row per named branch', () => {
    expect(overviewBox(registry, node('s', 'start'))).toEqual({
      measured: { width: 240, height: 42 },
      handles: [{ id: 'source', type: 'source', position: 'right', x: 240, y: 16, width: 10, height: 10 }],
    });
    expect(overviewBox(registry, node('e', 'end'))?.handles).toEqual([{ id: 'target', type: 'target', position: 'left', x: -10, y: 16, width: 10, height: 10 }]);
    const branching = overviewBox(registry, node('i', 'if-else', { cases }))!;
    expect(branching.measured).toEqual({ width: 240, height: 120 });
    expect(branching.handles.map((h) => `${h.type}:${h.id}@${h.x},${h.y}`)).toEqual(['target:target@-10,16', 'source:c1@240,47', 'source:c2@240,71', 'source:false@240,95']);
  });

  it('gives none to containers, notes and unknown kinds (their size is their content)', () => {
    expect(overviewBox(registry, node('it', 'iteration'))).toBeUndefined();
    expect(overviewBox(registry, node('n', 'note'))).toBeUndefined();
    expect(overviewBox(registry, node('x', 'no-such-kind'))).toBeUndefined();
  });
});

describe('FlowElementCache', () => {
  it('estimates unmeasured steps only when the canvas opens in the overview, and measured sizes win', () => {
    const cache = new FlowElementCache(registry);
    const start = node('s', 'start');
    expect(cache.node(start, false).measured).toBeUndefined();
    const estimated = cache.node(start, false, true);
    expect(estimated.measured).toEqual({ width: 240, height: 42 });
    expect(estimated.handles).toHaveLength(1);
    expect(cache.node(start, false, true)).toBe(estimated);
    cache.measured.set('s', { width: 240, height: 90 });
    const measured = cache.node(start, false, true);
    expect(measured.measured).toEqual({ width: 240, height: 90 });
    expect(measured.handles).toBeUndefined();
  });
});
