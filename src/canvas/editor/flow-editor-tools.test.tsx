import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { builtinPlugins } from '../builtin-plugins';
import { initI18n } from '../../i18n';
import { createNodeRegistry } from '../../plugin-sdk';
import { Toaster } from '../../ui';
import { exportFlowYaml } from '../dsl';
import unknownYaml from '../dsl/fixtures/unknown-node.yml?raw';
import { createFlowStore } from '../store/create-flow-store';
import { animatedLayout } from './animated-layout';
import { FlowEditor } from './flow-editor';
import { flowFileName } from './flow-files';
import { createMemoryFlowImport } from './memory-flow-import';
import { stubBrowserForReactFlow } from './test-setup';
import { StoredSecretsContext } from './stored-secrets';
import { rowsOf, saveRows, validateRows, type VariableRow } from './variables-logic';

const registry = createNodeRegistry(builtinPlugins);

function setup(mode: 'workflow' | 'chatflow' = 'workflow') {
  const store = createFlowStore({ registry, mode });
  const importer = createMemoryFlowImport(store);
  render(
    <>
      <FlowEditor store={store} checklistDelayMs={0} flowFile={{ name: 'Report: triage', description: 'd' }} importer={importer} />
      <Toaster />
    </>,
  );
  return Object.assign(store, { importer });
}

beforeAll(async () => {
  stubBrowserForReactFlow();
  await initI18n('en');
});
afterEach(cleanup);

const row = (p: Partial<VariableRow>): VariableRow => ({ id: 'env_1', name: 'x', type: 'string', value: '', description: '', ...p });

describe('variables', () => {
  it('checks names and values and saves them as one undo step (secrets without a value keep theirs)', () => {
    const store = createFlowStore({ registry, mode: 'chatflow' });
    expect(validateRows([row({ name: '1x' }), row({ id: 'b', name: 'n', type: 'number', value: 'abc' })])).toEqual({ env_1: { name: 'name' }, b: { value: 'number' } });
    expect(validateRows([row({}), row({ id: 'b' })])).toEqual({ env_1: { name: 'nameTaken' }, b: { name: 'nameTaken' } });
    expect(saveRows(store, 'env', [row({ name: 'api', type: 'secret' }), row({ id: 'env_2', name: 'n', type: 'number', value: '3' })])).toBe(true);
    expect(store.toDocument().variables.env).toEqual([
      { id: 'env_1', name: 'api', type: 'secret', description: '' },
      { id: 'env_2', name: 'n', type: 'number', value: 3, description: '' },
    ]);
    expect(rowsOf(store.toDocument(), 'env')[1].value).toBe('3');
    expect(validateRows([row({ type: 'array[number]', value: '["a"]' })])).toEqual({ env_1: { value: 'json' } });
    saveRows(store, 'conversation', [row({ id: 'c1', name: 'count', type: 'number', value: '0' }), row({ id: 'c2', name: 'tags', type: 'array[string]', value: '["a"]' })]);
    expect(store.toDocument().variables.conversation.map((v) => v.value)).toEqual([0, ['a']]);
    store.undo();
    expect(store.toDocument().variables.conversation).toEqual([]);
    expect(store.toDocument().variables.env).toHaveLength(2);
  });

  it('edits environment variables in the toolbar dialog; conversation variables only in chat modes', async () => {
    const store = setup('workflow');
    expect(screen.queryByTestId('toolbar-conversation-variables')).toBeNull();
    fireEvent.click(screen.getByTestId('toolbar-env-variables'));
    const dialog = await screen.findByTestId('variables-dialog-env');
    fireEvent.click(within(dialog).getByTestId('variable-add'));
    fireEvent.change(within(dialog).getByTestId('variable-name'), { target: { value: 'bad name' } });
    fireEvent.click(within(dialog).getByTestId('variables-save'));
    expect(dialog).toHaveTextContent('A name starts with a letter');
    fireEvent.change(within(dialog).getByTestId('variable-name'), { target: { value: 'region' } });
    fireEvent.change(within(dialog).getByTestId('variable-value'), { target: { value: 'eu' } });
    fireEvent.click(within(dialog).getByTestId('variables-save'));
    await waitFor(() => expect(screen.queryByTestId('variables-dialog-env')).toBeNull());
    expect(store.toDocument().variables.env).toEqual([{ id: 'env_1', name: 'region', type: 'string', value: 'eu', description: '' }]);
    fireEvent.click(screen.getByTestId('toolbar-undo'));
    expect(store.toDocument().variables.env).toEqual([]);
    cleanup();
    setup('chatflow');
    expect(screen.getByTestId('toolbar-conversation-variables')).toBeInTheDocument();
  });

  it('says which secrets have a value stored on the server (their values never come back)', async () => {
    const store = createFlowStore({ registry, mode: 'workflow' });
    saveRows(store, 'env', [row({ id: 'env_1', name: 'api_key', type: 'secret' }), row({ id: 'env_2', name: 'token', type: 'secret' })]);
    render(
      <StoredSecretsContext.Provider value={new Set(['env_1'])}>
        <FlowEditor store={store} checklistDelayMs={0} />
      </StoredSecretsContext.Provider>,
    );
    fireEvent.click(screen.getByTestId('toolbar-env-variables'));
    const dialog = await screen.findByTestId('variables-dialog-env');
    const [stored, missing] = within(dialog).getAllByTestId('variable-value');
    expect(stored).toHaveAttribute('data-secret', 'stored');
    expect(stored).toHaveAttribute('placeholder', 'A value is stored (hidden); leave empty to keep it');
    expect(stored).toHaveValue('');
    expect(missing).toHaveAttribute('data-secret', 'missing');
    expect(missing).toHaveAttribute('placeholder', 'No value stored yet');
  });
});

describe('flow files', () => {
  it('sends a Dify file to the server on "Replace", shows its report, and reloads the stored draft (history starts anew)', async () => {
    const store = setup('workflow');
    store.addNode('code');
    const before = store.toDocument();
    fireEvent.click(screen.getByTestId('toolbar-import'));
    const dialog = await screen.findByTestId('import-dialog');
    expect(within(dialog).getByTestId('import-replace')).toBeDisabled();
    fireEvent.change(within(dialog).getByTestId('import-file'), { target: { files: [new File([unknownYaml], 'triage.yml')] } });
    // Picking only names the file: nothing is sent before "Replace".
    expect(await within(dialog).findByTestId('import-chosen')).toHaveTextContent('triage.yml');
    expect(store.importer.calls).toEqual([]);
    fireEvent.click(within(dialog).getByTestId('import-replace'));
    const report = await within(dialog).findByTestId('import-report');
    expect(store.importer.calls).toEqual(['importFile', 'reload']);
    expect(report).toHaveTextContent(`${store.importer.stored!.nodes.length} nodes imported`);
    expect(within(report).getByTestId('import-report-unmapped').querySelectorAll('li').length).toBeGreaterThan(0);
    // The canvas shows the stored draft; undo cannot bring back the replaced flow.
    expect(store.toDocument().nodes.map((n) => n.id)).toEqual(store.importer.stored!.nodes.map((n) => n.id));
    expect(store.toDocument()).not.toEqual(before);
    expect(store.getState().history.canUndo).toBe(false);
    await waitFor(() => expect(screen.getAllByTestId(/^node-/).length).toBeGreaterThanOrEqual(store.importer.stored!.nodes.length));
    fireEvent.click(within(dialog).getByTestId('import-close'));
    await waitFor(() => expect(screen.queryByTestId('import-dialog')).toBeNull());
  });

  it("shows the server's refusal of a file of another mode (APP-1001) and changes nothing", async () => {
    const store = setup('chatflow');
    const before = store.toDocument();
    fireEvent.click(screen.getByTestId('toolbar-import'));
    const dialog = await screen.findByTestId('import-dialog');
    const other = exportFlowYaml(createFlowStore({ registry, mode: 'workflow' }).toDocument(), { name: 'w' });
    fireEvent.change(within(dialog).getByTestId('import-file'), { target: { files: [new File([other], 'w.yml')] } });
    await within(dialog).findByTestId('import-chosen');
    fireEvent.click(within(dialog).getByTestId('import-replace'));
    expect(await within(dialog).findByTestId('import-errors')).toHaveTextContent('The file holds a workflow flow, but this app is a chatflow');
    expect(store.importer.calls).toEqual(['importFile']);
    expect(store.toDocument()).toEqual(before);
    expect(within(dialog).getByTestId('import-replace')).toBeDisabled();
  });

  it("lists the importer's reasons for a file it cannot read (VALIDATION-1000 with data.errors)", async () => {
    const store = setup('workflow');
    fireEvent.click(screen.getByTestId('toolbar-import'));
    const dialog = await screen.findByTestId('import-dialog');
    fireEvent.change(within(dialog).getByTestId('import-file'), { target: { files: [new File(['just: text\n'], 'x.yml')] } });
    await within(dialog).findByTestId('import-chosen');
    fireEvent.click(within(dialog).getByTestId('import-replace'));
    const errors = await within(dialog).findByTestId('import-errors');
    expect(errors.querySelectorAll('li').length).toBeGreaterThan(0);
    expect(errors.textContent).not.toMatch(/VALIDATION|errors\./);
    expect(store.importer.stored).toBeUndefined();
  });

  it('exports our YAML as a download named after the app', async () => {
    const created: Blob[] = [];
    const createObjectURL = vi.fn((b: Blob) => (created.push(b), 'blob:flow'));
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    setup('workflow');
    fireEvent.click(screen.getByTestId('toolbar-export'));
    expect(click).toHaveBeenCalledTimes(1);
    expect(await created[0].text()).toContain('kind: weft-flow');
    expect(flowFileName('Report: triage')).toBe('Report_ triage.yml');
    click.mockRestore();
  });
});

describe('animated layout', () => {
  it('glides the nodes and leaves the document as it was for the command to write', async () => {
    const store = createFlowStore({ registry, mode: 'workflow' });
    const doc = store.toDocument();
    const target = Object.fromEntries(doc.nodes.map((n, i) => [n.id, { x: i * 500, y: 50 }]));
    const frames: ((t: number) => void)[] = [];
    let clock = 0;
    const seen: number[] = [];
    store.subscribeDocument((d) => seen.push(d.nodes[1].position.x));
    const layout = animatedLayout(store, async () => ({ positions: target }), { requestFrame: (cb) => frames.push(cb), cancelFrame: () => undefined, now: () => clock });
    const done = layout(doc, {});
    await vi.waitFor(() => expect(frames.length).toBe(1));
    for (clock = 100; frames.length; clock += 100) frames.shift()!(clock);
    const result = await done;
    expect(result.positions).toBe(target);
    expect(seen.length).toBeGreaterThan(2);
    expect(store.toDocument().nodes.map((n) => n.position)).toEqual(doc.nodes.map((n) => n.position));
    expect(store.getState().history.canUndo).toBe(false);
  });

  it('does not glide more nodes than maxNodes: the result comes back without a frame', async () => {
    const store = createFlowStore({ registry, mode: 'workflow' });
    const doc = store.toDocument();
    const target = Object.fromEntries(doc.nodes.map((n, i) => [n.id, { x: i * 500, y: 50 }]));
    const frames: ((t: number) => void)[] = [];
    const seen: number[] = [];
    store.subscribeDocument((d) => seen.push(d.nodes.length));
    const layout = animatedLayout(store, async () => ({ positions: target }), { requestFrame: (cb) => frames.push(cb), cancelFrame: () => undefined, maxNodes: doc.nodes.length - 1 });
    expect((await layout(doc, {})).positions).toBe(target);
    expect(frames).toEqual([]);
    expect(seen).toEqual([]);
  });
});
