import type { InternalNode } from '@xyflow/react';
import { describe, expect, it } from 'vitest';
import { minimapPaths } from './flow-minimap';

const node = (id: string, x: number, y: number, user: Record<string, unknown>) =>
  ({ id, internals: { positionAbsolute: { x, y }, userNode: { id, position: { x: 0, y: 0 }, data: {}, ...user } } }) as unknown as InternalNode;

describe('minimapPaths', () => {
  it('draws measured, visible nodes at their absolute positions, the selected ones apart', () => {
    const paths = minimapPaths([
      node('a', 10, 20, { measured: { width: 240, height: 42 } }),
      node('child', 300, 120, { measured: { width: 100, height: 50 }, parentId: 'box' }),
      node('picked', -5, 0, { measured: { width: 240, height: 42 }, selected: true }),
      node('hidden', 0, 0, { measured: { width: 240, height: 42 }, hidden: true }),
      node('unmeasured', 0, 0, {}),
    ]);
    expect(paths).toEqual({ nodes: 'M10,20h240v42h-240zM300,120h100v50h-100z', selected: 'M-5,0h240v42h-240z' });
    expect(minimapPaths([])).toEqual({ nodes: '', selected: '' });
  });
});
