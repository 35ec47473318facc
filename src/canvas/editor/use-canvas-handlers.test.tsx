import { renderHook, act, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../i18n';
import { Toaster, toast } from '../../ui';
import { makeStore } from '../plugins.fixture';
import { connectionOf, useConnectionHandlers } from './use-canvas-handlers';

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
