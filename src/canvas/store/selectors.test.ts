import { describe, expect, it } from 'vitest';
import { makeStore } from '../plugins.fixture';
import { edgeIndex, nodeIndex, selectIsSelected, selectNode, selectRunStatus } from './selectors';

describe('selectors', () => {
  it('index nodes once per array and keep unchanged nodes identical across edits', () => {
    const store = makeStore();
    const before = store.getState();
    expect(nodeIndex(before.document)).toBe(nodeIndex(before.document));
    expect(edgeIndex(before.document).get('a-source-b-target')?.target).toBe('b');
    store.moveNodes({ a: { x: 1, y: 1 } });
    const after = store.getState();
    expect(selectNode('b')(after)).toBe(selectNode('b')(before));
    expect(selectNode('a')(after)).not.toBe(selectNode('a')(before));
    expect(selectNode('missing')(after)).toBeUndefined();
  });

  it('read view slices per node', () => {
    const store = makeStore();
    store.setSelection({ nodes: ['a'] });
    store.setRunStatus({ a: 'running' });
    expect(selectIsSelected('a')(store.getState())).toBe(true);
    expect(selectIsSelected('b')(store.getState())).toBe(false);
    expect(selectRunStatus('a')(store.getState())).toBe('running');
  });
});
