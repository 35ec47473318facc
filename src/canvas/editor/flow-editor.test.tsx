import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { initI18n } from '../../i18n';
import { createNodeRegistry, type AnyNodePlugin } from '../../plugin-sdk';
import { withView, type NodeBodyProps } from '../../plugin-sdk/view';
import { Toaster, toast } from '../../ui';
import { canvasPlugins, edge, flow, node, sampleFlow } from '../plugins.fixture';
import { referencesTo } from '../references';
import { createFlowStore } from '../store/create-flow-store';
import { FlowEditor } from './flow-editor';
import { paletteGroups } from './palette';
import { stubBrowserForReactFlow } from './test-setup';

/** Renders of each node's body, by node id (a body re-renders whenever its node component does). */
const bodyRenders = new Map<string, number>();
function CountingBody({ node: n }: NodeBodyProps) {
  bodyRenders.set(n.id, (bodyRenders.get(n.id) ?? 0) + 1);
  return (
    <>
      <span>{n.id}</span>
      {/* A code editor in a node's body (Monaco's EditContext div in Chrome). */}
      <div className="native-edit-context" role="textbox" tabIndex={0} data-testid={`body-code-${n.id}`} />
    </>
  );
}
const plugins = (canvasPlugins as readonly AnyNodePlugin[]).map((p) => (p.kind === 'echo' ? withView(p, { Body: CountingBody }) : p));
const registry = createNodeRegistry(plugins);

function setup(document = sampleFlow()) {
  const store = createFlowStore({ registry, mode: document.mode, document, freeze: false });
  const view = render(
    <>
      <FlowEditor store={store} checklistDelayMs={0} />
      <Toaster />
    </>,
  );
  return { store, ...view };
}

beforeAll(async () => {
  stubBrowserForReactFlow();
  await initI18n('en');
});

afterEach(cleanup);

beforeEach(() => {
  bodyRenders.clear();
  act(() => toast.dismiss());
});

describe('palette', () => {
  const t = (key: string) => key;
  it('offers only the kinds of the app mode that belong in the palette, grouped by category', () => {
    const kinds = (mode: 'workflow' | 'chatflow', q = '') => paletteGroups(registry, mode, q, t).flatMap((g) => g.plugins.map((p) => p.kind));
    expect(kinds('workflow')).not.toContain('reply');
    expect(kinds('workflow')).toContain('end');
    expect(kinds('chatflow')).toContain('reply');
    expect(kinds('chatflow')).not.toContain('end');
    // Container starts are created with their container, never from the palette.
    expect(kinds('workflow')).not.toContain('repeat-start');
    expect(kinds('workflow', 'ECH')).toEqual(['echo']);
    const groups = paletteGroups(registry, 'workflow', '', t).map((g) => g.category);
    expect(groups).toEqual([...groups].sort((a, b) => ['basic', 'model', 'knowledge', 'logic', 'transform', 'tool', 'container', 'annotation'].indexOf(a) - ['basic', 'model', 'knowledge', 'logic', 'transform', 'tool', 'container', 'annotation'].indexOf(b)));
  });

  it('searches by translated title and adds the clicked kind to the canvas', async () => {
    const { store } = setup();
    fireEvent.click(screen.getByTestId('toolbar-add-node'));
    const palette = screen.getByTestId('palette');
    fireEvent.change(within(palette).getByTestId('palette-search'), { target: { value: 'note' } });
    expect(within(palette).queryByTestId('palette-item-echo')).toBeNull();
    fireEvent.click(within(palette).getByTestId('palette-item-note'));
    await waitFor(() => expect(store.toDocument().nodes.some((n) => n.id === 'note_1')).toBe(true));
    expect(store.getState().view.selection.nodes).toEqual(['note_1']);
  });
});

describe('FlowEditor', () => {
  it('adds a node from the "+" of a handle and connects it', async () => {
    const { store } = setup();
    fireEvent.click(screen.getByTestId('add-next-a-source'));
    const popover = screen.getByTestId('add-from-popover');
    fireEvent.click(within(popover).getByTestId('add-from-item-echo'));
    await waitFor(() => expect(store.toDocument().edges.some((e) => e.source === 'a' && e.target === 'echo_1')).toBe(true));
    expect(screen.queryByTestId('add-from-popover')).toBeNull();
    await waitFor(() => expect(screen.getByTestId('node-echo_1')).toBeInTheDocument());
  });

  it('re-renders only the node that changed, and no node for a move', async () => {
    const { store } = setup();
    await waitFor(() => expect(bodyRenders.get('b')).toBeGreaterThan(0));
    const before = { a: bodyRenders.get('a')!, b: bodyRenders.get('b')!, inner: bodyRenders.get('inner')! };
    // A move changes nothing a node draws (React Flow moves its box): a drag renders no node.
    act(() => store.moveNodes({ a: { x: 310, y: 20 } }));
    act(() => store.moveNodes({ a: { x: 320, y: 40 } }));
    expect(bodyRenders.get('a')).toBe(before.a);
    act(() => store.setTitle('a', 'Renamed'));
    expect(bodyRenders.get('a')).toBeGreaterThan(before.a);
    expect(bodyRenders.get('b')).toBe(before.b);
    expect(bodyRenders.get('inner')).toBe(before.inner);
  });

  it('runs shortcuts from the canvas but never while the builder types in a field', async () => {
    const { store } = setup();
    act(() => store.setSelection({ nodes: ['a'], edges: [] }));
    fireEvent.click(screen.getByTestId('toolbar-add-node'));
    const search = screen.getByTestId('palette-search');
    fireEvent.keyDown(search, { key: 'Delete' });
    fireEvent.keyDown(search, { key: 'a', ctrlKey: true });
    expect(store.toDocument().nodes.some((n) => n.id === 'a')).toBe(true);
    expect(store.getState().view.selection.nodes).toEqual(['a']);

    fireEvent.keyDown(screen.getByTestId('flow-editor'), { key: 'Delete' });
    // Other nodes use a's output: the delete asks first and lists each reference it breaks.
    const refs = await screen.findByTestId('delete-references');
    expect(refs.querySelectorAll('li').length).toBe(referencesTo(store.toDocument(), registry, ['a']).length);
    // Named as the builder sees them (delete-guard.test.tsx), not as {{#a.text#}}.
    expect(refs).toHaveTextContent(/uses .+ \/ text/);
    expect(refs).not.toHaveTextContent('{{#a.');
    expect(store.toDocument().nodes.some((n) => n.id === 'a')).toBe(true);
    fireEvent.click(screen.getByTestId('delete-confirm-button'));
    await waitFor(() => expect(store.toDocument().nodes.some((n) => n.id === 'a')).toBe(false));
    // Undo from the page itself (nothing focused) reaches the editor too.
    fireEvent.keyDown(document.body, { key: 'z', ctrlKey: true });
    await waitFor(() => expect(store.toDocument().nodes.some((n) => n.id === 'a')).toBe(true));
    // Start may not be deleted: the key leaves it.
    act(() => store.setSelection({ nodes: ['start'], edges: [] }));
    fireEvent.keyDown(screen.getByTestId('flow-editor'), { key: 'Delete' });
    expect(store.toDocument().nodes.some((n) => n.id === 'start')).toBe(true);
  });

  it('leaves every key typed in the inspector or in Monaco to them, and takes Space typed on the canvas', () => {
    const store = createFlowStore({ registry, mode: 'workflow', document: sampleFlow(), freeze: false });
    render(
      <FlowEditor
        store={store}
        checklistDelayMs={0}
        renderInspector={() => (
          <>
            <button type="button" role="switch" aria-checked="true" data-testid="switch" />
            <button type="button" data-testid="close" />
            {/* Monaco in Chrome: the focus is on a div that takes text through an EditContext. */}
            <div className="monaco-editor">
              <div className="native-edit-context" role="textbox" tabIndex={0} data-testid="code" />
            </div>
          </>
        )}
      />,
    );
    act(() => store.setSelection({ nodes: ['b'], edges: [] }));
    for (const id of ['switch', 'close']) {
      fireEvent.keyDown(screen.getByTestId(id), { key: 'Delete' });
      fireEvent.keyDown(screen.getByTestId(id), { key: 'Backspace' });
      fireEvent.keyDown(screen.getByTestId(id), { key: 'a', ctrlKey: true });
    }
    expect(store.toDocument().nodes.some((n) => n.id === 'b')).toBe(true);
    expect(store.getState().view.selection.nodes).toEqual(['b']);
    // fireEvent answers false when a listener cancelled the key: a space must reach the code.
    expect(fireEvent.keyDown(screen.getByTestId('code'), { key: ' ', code: 'Space' })).toBe(true);
    fireEvent.keyUp(screen.getByTestId('code'), { key: ' ', code: 'Space' });
    // On the canvas, Space is the canvas's (held to pan with the wheel): the page does not scroll.
    expect(fireEvent.keyDown(screen.getByTestId('flow-editor'), { key: ' ', code: 'Space' })).toBe(false);
    fireEvent.keyUp(screen.getByTestId('flow-editor'), { key: ' ', code: 'Space' });
  });

  it('leaves the keys typed in a field of a node to it: the node is neither moved nor selected by them', async () => {
    const { store, container } = setup();
    act(() => store.setSelection({ nodes: ['a'], edges: [] }));
    const at = () => store.toDocument().nodes.find((n) => n.id === 'a')!.position;
    const code = screen.getByTestId('body-code-a');
    for (const key of ['ArrowRight', 'ArrowDown', ' ', 'Enter', 'Escape']) fireEvent.keyDown(code, { key });
    expect(at()).toEqual({ x: 300, y: 0 });
    expect(store.getState().view.selection.nodes).toEqual(['a']);
    // The node itself focused: the arrows move it (React Flow's keyboard moves stay).
    fireEvent.keyDown(container.querySelector('.react-flow__node[data-id="a"]')!, { key: 'ArrowRight' });
    await waitFor(() => expect(at().x).toBeGreaterThan(300));
  });

  it('opens the inspector for a node selected with the pointer down only when it is released (a drag mounts no panel)', () => {
    const store = createFlowStore({ registry, mode: 'workflow', document: sampleFlow(), freeze: false });
    render(<FlowEditor store={store} checklistDelayMs={0} renderInspector={(id) => <p data-testid="inspecting">{id}</p>} />);
    const inspecting = () => screen.queryByTestId('inspecting')?.textContent ?? null;
    // Selected otherwise (keys, menus, a click already released): at once.
    act(() => store.setSelection({ nodes: ['a'], edges: [] }));
    expect(inspecting()).toBe('a');
    // Pressed (to drag it): the panel stays as it was until the pointer is released.
    fireEvent.pointerDown(window);
    act(() => store.setSelection({ nodes: ['b'], edges: [] }));
    expect(store.getState().view.selection.nodes).toEqual(['b']);
    expect(inspecting()).toBe('a');
    act(() => void fireEvent.pointerUp(window));
    expect(inspecting()).toBe('b');
    // A box selection of several closes it on release, an empty click at once.
    fireEvent.pointerDown(window);
    act(() => store.setSelection({ nodes: ['a', 'b'], edges: [] }));
    expect(inspecting()).toBe('b');
    act(() => void fireEvent.pointerUp(window));
    expect(inspecting()).toBeNull();
    act(() => store.setSelection({ nodes: ['a'], edges: [] }));
    act(() => store.setSelection({ nodes: [], edges: [] }));
    expect(inspecting()).toBeNull();
  });

  it('lists checklist entries and selects the node of the one clicked', async () => {
    const { store } = setup(
      flow({
        nodes: [node('start', 'start'), node('a', 'echo', { position: { x: 300, y: 0 } }), node('lost', 'echo', { position: { x: 300, y: 300 } }), node('end', 'end', { position: { x: 600, y: 0 } })],
        edges: [edge('start', 'a'), edge('a', 'end')],
      }),
    );
    await waitFor(() => expect(Number(screen.getByTestId('checklist-count').textContent)).toBeGreaterThan(0));
    expect(screen.getByTestId('node-issues-lost')).toHaveAttribute('data-severity', 'error');
    fireEvent.click(screen.getByTestId('toolbar-checklist'));
    const panel = screen.getByTestId('checklist-panel');
    expect(panel).toHaveTextContent('This node is not connected');
    fireEvent.click(within(panel).getAllByTestId('checklist-entry-lost')[0]);
    expect(store.getState().view.selection.nodes).toEqual(['lost']);
  });

  it('copies and pastes with the keys (through the paste event or, without one, the clipboard)', async () => {
    const { store } = setup();
    act(() => store.setSelection({ nodes: ['b'], edges: [] }));
    const editor = screen.getByTestId('flow-editor');
    fireEvent.keyDown(editor, { key: 'c', ctrlKey: true });
    fireEvent.keyDown(editor, { key: 'v', ctrlKey: true });
    await waitFor(() => expect(store.toDocument().nodes.some((n) => n.id === 'echo_1')).toBe(true));
    expect(store.getState().view.selection.nodes).toEqual(['echo_1']);
  });

  it('disables undo and redo in the toolbar when there is nothing to take back', () => {
    const { store } = setup();
    expect(screen.getByTestId('toolbar-undo')).toBeDisabled();
    expect(screen.getByTestId('toolbar-redo')).toBeDisabled();
    act(() => store.moveNodes({ a: { x: 1, y: 1 } }));
    expect(screen.getByTestId('toolbar-undo')).toBeEnabled();
    fireEvent.click(screen.getByTestId('toolbar-undo'));
    expect(screen.getByTestId('toolbar-redo')).toBeEnabled();
  });

  it('offers commands in the pane and node context menus', async () => {
    const { store } = setup();
    fireEvent.contextMenu(screen.getByTestId('node-b'));
    const menu = screen.getByTestId('node-menu');
    expect(within(menu).getByTestId('menu-duplicate')).toHaveTextContent('Duplicate');
    fireEvent.click(within(menu).getByTestId('menu-duplicate'));
    await waitFor(() => expect(store.toDocument().nodes.some((n) => n.id === 'echo_1')).toBe(true));
  });
});
