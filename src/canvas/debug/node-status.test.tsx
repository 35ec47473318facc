import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { initI18n } from '../../i18n';
import { createNodeRegistry, type AnyNodePlugin } from '../../plugin-sdk';
import { withView, type NodeBodyProps } from '../../plugin-sdk/view';
import { FlowEditor } from '../editor/flow-editor';
import { stubBrowserForReactFlow } from '../editor/test-setup';
import { canvasPlugins, sampleFlow } from '../plugins.fixture';
import { createFlowStore } from '../store/create-flow-store';
import { eventScript } from './events.fixture';
import { runStoreOf } from './run-store';

/** Renders of each node's body, by node id: a body re-renders whenever its node component does. */
const renders = new Map<string, number>();
function CountingBody({ node }: NodeBodyProps) {
  renders.set(node.id, (renders.get(node.id) ?? 0) + 1);
  return <span>{node.id}</span>;
}
const registry = createNodeRegistry((canvasPlugins as readonly AnyNodePlugin[]).map((p) => (p.kind === 'echo' ? withView(p, { Body: CountingBody }) : p)));

beforeAll(async () => {
  stubBrowserForReactFlow();
  await initI18n('en');
});
afterEach(cleanup);

describe('run status on the canvas', () => {
  it('re-renders only the node whose status changed, and shows the status ring, words and time', async () => {
    const store = createFlowStore({ registry, mode: 'workflow', document: sampleFlow(), freeze: false });
    render(<FlowEditor store={store} checklistDelayMs={0} />);
    await screen.findByTestId('node-a');
    await act(async () => {
      await new Promise((r) => setTimeout(r, 20));
    });
    const runs = runStoreOf(store);
    const e = eventScript();
    const before = new Map(renders);
    expect(before.get('a')).toBeGreaterThan(0);
    expect(before.get('b')).toBeGreaterThan(0);

    act(() => runs.apply(e.started('a', 'echo')));
    expect(screen.getByTestId('node-a')).toHaveAttribute('data-run-status', 'running');
    expect(renders.get('a')).toBe(before.get('a')! + 1);
    expect(renders.get('b')).toBe(before.get('b'));
    expect(renders.get('inner')).toBe(before.get('inner'));

    // A chunk changes the trace but no node status: no node renders.
    act(() => runs.apply(e.chunk('a', 'echo', 'tok')));
    expect(renders.get('a')).toBe(before.get('a')! + 1);

    // Waiting for a free sandbox shows on the node too, and ends when a worker takes it.
    act(() => runs.apply(e.waiting('a', 'echo', 1)));
    expect(screen.getByTestId('node-run-a')).toHaveAttribute('data-waiting', 'true');
    expect(screen.getByTestId('node-run-a')).toHaveTextContent('Waiting for a free sandbox…');
    expect(renders.get('b')).toBe(before.get('b'));
    act(() => runs.apply(e.waiting('a', 'echo', null)));
    expect(screen.getByTestId('node-run-a')).not.toHaveAttribute('data-waiting');
    expect(screen.getByTestId('node-run-a')).toHaveTextContent('Running');

    act(() => runs.apply(e.finished('a', 'echo', { text: 'x' }, { elapsedMs: 1500, exception: true })));
    const nodeA = screen.getByTestId('node-a');
    expect(nodeA).toHaveAttribute('data-run-status', 'exception');
    expect(screen.getByTestId('node-run-a')).toHaveTextContent('1.50 s');
    expect(screen.getByTestId('node-run-a')).toHaveTextContent('Exception (handled)');
    expect(renders.get('b')).toBe(before.get('b'));
    expect(screen.getByTestId('node-b')).not.toHaveAttribute('data-run-status');

    act(() => runs.reset());
    expect(screen.getByTestId('node-a')).not.toHaveAttribute('data-run-status');
    expect(screen.queryByTestId('node-run-a')).toBeNull();
  });
});
