import { renderHook, act, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../i18n';
import { Toaster, toast } from '../../ui';
import { makeStore } from '../plugins.fixture';
import { ReactFlowProvider, useStoreApi } from '@xyflow/react';
import { FlowElementCache } from './flow-elements';
import { connectionOf, useChangeHandlers, useConnectionHandlers, useDragHandlers } from './use-canvas-handlers';

beforeAll(async () => {
  await initI18n('en');
});

const state = (from: string, to: string, fromType: 'source' | 'target' = 'source') => ({
  isValid: false,
  fromNode: { id: from },
  fromHandle: { id: fromType === 'source' ? 'source' : 'target', type: fromType },
  toNode: { id: to },
  toHandle: { id: fromType === 'source' ? 'target' : 'source', type: fromType === 'source' ? 'target' : 'source' },
});

describe('connecting', () => {
  it('reads a refused drag from either end', () => {
    expect(connectionOf(state('a', 'b') as never)).toEqual({ source: 'a', sourceHandle: 'source', target: 'b', targetHandle: 'target' });
    expect(connectionOf(state('b', 'a', 'target') as never)).toEqual({ source: 'a', sourceHandle: 'source', target: 'b', targetHandle: 'target' });
  });

  it('refuses through the core rules and shows the reason', () => {
    const store = makeStore();
    render(<Toaster />);
    const notify = vi.fn((n: { key: string }) => toast.warning(n.key));
    const wrapper = ({ children }: { children: ReactNode }) => <>{children}</>;
    const { result } = renderHook(() => useConnectionHandlers(store, { notify }), { wrapper });
    expect(result.current.isValidConnection({ source: 'a', target: 'start' })).toBe(false);
    expect(result.current.isValidConnection({ source: 'a', target: 'end', sourceHandle: 'source', targetHandle: 'target' })).toBe(true);

    act(() => result.current.onConnectEnd(new MouseEvent('mouseup'), state('a', 'start') as never));
    expect(notify).toHaveBeenLastCalledWith({ key: 'connect.targetClosed', severity: 'warning' });
    expect(screen.getByText('connect.targetClosed')).toBeInTheDocument();

    // A cycle back to the start of the chain.
    act(() => result.current.onConnect({ source: 'b', target: 'a', sourceHandle: 'source', targetHandle: 'target' }));
    expect(notify).toHaveBeenLastCalledWith({ key: 'connect.cycle', severity: 'warning' });
    expect(store.toDocument().edges.some((e) => e.source === 'b' && e.target === 'a')).toBe(false);

    act(() => result.current.onConnect({ source: 'a', target: 'end', sourceHandle: 'source', targetHandle: 'target' }));
    expect(store.toDocument().edges.some((e) => e.source === 'a' && e.target === 'end')).toBe(true);
  });
});

describe('dragging', () => {
  function setup() {
    const store = makeStore();
    const cache = new FlowElementCache(store.registry);
    const docNodes = () => store.getState().document.nodes;
    const wrapper = ({ children }: { children: ReactNode }) => <ReactFlowProvider>{children}</ReactFlowProvider>;
    const { result } = renderHook(
      () => ({ changes: useChangeHandlers(store, cache, () => {}), drag: useDragHandlers(store, cache, { manager: {} as never, notify: vi.fn() }), rf: useStoreApi() }),
      { wrapper },
    );
    act(() => result.current.rf.getState().setNodes(docNodes().map((n) => cache.node(n, false))));
    return { store, cache, result, docNodes };
  }
  const move = (id: string, x: number, y: number, dragging: boolean) => [{ id, type: 'position' as const, position: { x, y }, dragging }];

  it('moves React Flow alone while the drag lasts, and writes the last position as one undo step', () => {
    const { store, cache, result, docNodes } = setup();
    const before = store.getState().document;
    const at = docNodes().find((n) => n.id === 'a')!.position;
    act(() => result.current.drag.onNodeDragStart());
    for (let i = 1; i <= 5; i++) act(() => result.current.changes.onNodesChange(move('a', at.x + i * 10, at.y + i, true)));
    // The document is untouched: React Flow shows the node where the pointer is.
    expect(store.getState().document).toBe(before);
    expect(result.current.rf.getState().nodeLookup.get('a')!.position).toEqual({ x: at.x + 50, y: at.y + 5 });
    // A render of the editor meanwhile (a selection changes) keeps the node under the pointer.
    expect(cache.node(docNodes().find((n) => n.id === 'a')!, true).position).toEqual({ x: at.x + 50, y: at.y + 5 });
    act(() => result.current.changes.onNodesChange(move('a', at.x + 60, at.y + 6, false)));
    act(() => result.current.drag.onNodeDragStop(new MouseEvent('mouseup'), undefined, [{ id: 'a' } as never]));
    expect(docNodes().find((n) => n.id === 'a')!.position).toEqual({ x: at.x + 60, y: at.y + 6 });
    expect(cache.live.size).toBe(0);
    store.undo();
    expect(store.getState().document).toEqual(before);
    expect(store.getState().history.canUndo).toBe(false);
  });

  it('writes the positions when the drag stops without a last change', () => {
    const { store, result, docNodes } = setup();
    act(() => result.current.drag.onNodeDragStart());
    act(() => result.current.changes.onNodesChange([...move('a', 500, 40, true), ...move('b', 700, 40, true)]));
    act(() => result.current.drag.onNodeDragStop(new MouseEvent('mouseup'), undefined, [{ id: 'a' }, { id: 'b' }] as never));
    expect(docNodes().find((n) => n.id === 'a')!.position).toEqual({ x: 500, y: 40 });
    expect(docNodes().find((n) => n.id === 'b')!.position).toEqual({ x: 700, y: 40 });
    expect(store.getState().history.canUndo).toBe(true);
    store.undo();
    expect(store.getState().history.canUndo).toBe(false);
  });
});
