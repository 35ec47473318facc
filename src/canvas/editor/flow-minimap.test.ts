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
    expect(paths).toEqual({ groups: [{ color: undefined, d: 'M10,20h240v42h-240zM300,120h100v50h-100z' }], selected: 'M-5,0h240v42h-240z' });
    expect(minimapPaths([])).toEqual({ groups: [], selected: '' });
  });

  it("colours each node by its kind's colour: one path per colour, nodes without one in the default grey", () => {
    const colors: Record<string, string> = { a: '#6366f1', b: '#6366f1', c: '#16a34a' };
    const paths = minimapPaths(
      [
        node('a', 0, 0, { measured: { width: 10, height: 10 } }),
        node('c', 20, 0, { measured: { width: 10, height: 10 } }),
        node('b', 40, 0, { measured: { width: 10, height: 10 } }),
        node('plain', 60, 0, { measured: { width: 10, height: 10 } }),
      ],
      (id) => colors[id],
    );
    expect(paths.groups).toEqual([
      { color: '#6366f1', d: 'M0,0h10v10h-10zM40,0h10v10h-10z' },
      { color: '#16a34a', d: 'M20,0h10v10h-10z' },
      { color: undefined, d: 'M60,0h10v10h-10z' },
    ]);
  });
});
