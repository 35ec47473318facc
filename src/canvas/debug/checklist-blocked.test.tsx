import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { configureRequest } from '../../api/request';
import { useSession } from '../../app/session';
import { initI18n } from '../../i18n';
import { createNodeRegistry } from '../../plugin-sdk';
import { builtinPlugins } from '../builtin-plugins';
import { computeChecklist } from '../checklist';
import { createFlowStore } from '../store/create-flow-store';
import { DebugPane } from './debug-pane';

/**
 * A draft run the server refuses because the flow does not pass its checks (VALIDATION-1000 with the
 * compile issues): the pane says the checklist blocks the run and lists the entries, each leading to
 * its node and field.
 */

const registry = createNodeRegistry(builtinPlugins);

function refusingFetch(): Promise<Response> {
  const issues = [{ path: 'node/x', message: 'canvas:checklist.notConnected', code: 'RUN-FLOW-INVALID', node_id: 'x' }];
  return Promise.resolve(new Response(JSON.stringify({ code: 'VALIDATION-1000', msg: 'The flow cannot run: node/x canvas:checklist.notConnected', data: issues }), { status: 400, headers: { 'content-type': 'application/json' } }));
}

beforeAll(async () => {
  await initI18n('en');
  configureRequest({ fetch: refusingFetch as typeof fetch, baseUrl: '' });
  useSession.setState({ accessToken: 'tok', tenantId: 't1', workspaceId: 'ws-1' } as never);
});
afterAll(() => configureRequest({ fetch: undefined }));
afterEach(cleanup);

describe('DebugPane, a run blocked by the checklist', () => {
  it('says the checklist blocks the run and lists its entries; a click selects the node and focuses its field', async () => {
    const store = createFlowStore({ registry, mode: 'workflow', freeze: false });
    const llm = store.addNode('llm', { from: { nodeId: 'start' } })!;
    const entries = computeChecklist(store.getState().document, registry).filter((e) => e.severity === 'error');
    expect(entries.length).toBeGreaterThan(0);
    const withField = entries.find((e) => e.nodeId === llm && e.path?.length)!;
    expect(withField).toBeTruthy();
    // The inspector's field the entry names (as the schema form marks it).
    const field = document.createElement('div');
    field.dataset.field = String(withField.path![0]);
    const input = document.createElement('input');
    field.append(input);
    document.body.append(field);

    render(<DebugPane store={store} appId="app-1" workspaceId="ws-1" />);
    fireEvent.click(screen.getByTestId('workflow-run'));
    const blocked = await screen.findByTestId('debug-checklist-blocked');
    expect(blocked).toHaveTextContent('The checklist has problems that stop the flow from running');
    expect(screen.queryByText('Parameter error')).toBeNull();
    const items = within(blocked).getAllByRole('button');
    expect(items).toHaveLength(entries.length);
    const item = within(blocked).getAllByTestId(`debug-checklist-${llm}`)[0];
    expect(item).toHaveTextContent(/LLM/);
    fireEvent.click(item);
    expect(store.getState().view.selection.nodes).toEqual([llm]);
    // The canvas is asked to centre on it (the editor clears the request once centred).
    expect(store.getState().view.focus?.nodeId).toBe(llm);
    await waitFor(() => expect(document.activeElement).toBe(input));
    field.remove();
  });
});
