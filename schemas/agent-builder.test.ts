import { describe, expect, it } from 'vitest';
import { zeroCodeNodes } from './agent-builder';
import type { FlowDocument } from './flow';

const node = (id: string, kind: string, parentId?: string) => ({ id, kind, kindVersion: 1, title: '', position: { x: 0, y: 0 }, config: {}, ...(parentId ? { parentId } : {}) });
const edge = (source: string, target: string) => ({ id: `${source}-${target}`, source, sourceHandle: 'source', target, targetHandle: 'target' });
const agentFlow = (): Pick<FlowDocument, 'mode' | 'nodes' | 'edges' | 'editor'> => ({
  mode: 'agent',
  nodes: [node('start', 'start'), node('a1', 'agent'), node('answer', 'answer')],
  edges: [edge('start', 'a1'), edge('a1', 'answer')],
});

describe('zeroCodeNodes', () => {
  it('finds start → agent → answer of an agent app, sticky notes aside', () => {
    expect(zeroCodeNodes(agentFlow())).toEqual({ start: 'start', agent: 'a1', answer: 'answer' });
    const withNote = agentFlow();
    withNote.nodes.push(node('n1', 'note'));
    expect(zeroCodeNodes(withNote)).toEqual({ start: 'start', agent: 'a1', answer: 'answer' });
  });

  it('is undefined for other modes, a flow turned into a canvas flow, or any other shape', () => {
    expect(zeroCodeNodes({ ...agentFlow(), mode: 'agent_team' })).toBeUndefined();
    expect(zeroCodeNodes({ ...agentFlow(), editor: 'canvas' })).toBeUndefined();
    const more = agentFlow();
    more.nodes.push(node('llm', 'llm'));
    expect(zeroCodeNodes(more)).toBeUndefined();
    const rewired = agentFlow();
    rewired.edges = [edge('start', 'answer'), edge('a1', 'answer')];
    expect(zeroCodeNodes(rewired)).toBeUndefined();
    const extraEdge = agentFlow();
    extraEdge.edges.push(edge('start', 'answer'));
    expect(zeroCodeNodes(extraEdge)).toBeUndefined();
  });
});
