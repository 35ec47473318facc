import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FlowMode } from '../../../../../schemas/flow';
import { i18n, initI18n } from '../../../../i18n';
import { Toaster } from '../../../../ui/toast';
import ApiPage from './api-page';
import { ApiTabApiContext } from './api-tab-api';
import { createMemoryApiTabApi, type MemoryApiTabOptions } from './memory-api-tab-api';

beforeAll(async () => {
  await initI18n('en');
});
afterEach(cleanup);
afterAll(async () => {
  await i18n.changeLanguage('zh');
});
vi.setConfig({ testTimeout: 20_000 });

const ORIGIN = 'https://weft.example';

function setup(opts: MemoryApiTabOptions & { mode?: FlowMode } = {}) {
  const api = createMemoryApiTabApi(opts);
  render(
    <ApiTabApiContext value={api}>
      <ApiPage app={{ id: api.appId, workspace_id: api.workspaceId, type: opts.mode ?? 'chatflow' }} origin={ORIGIN} />
      <Toaster />
    </ApiTabApiContext>,
  );
  return { api, user: userEvent.setup() };
}

describe('ApiPage', () => {
  it('gives the base URL and documents a chat app from its published start form', async () => {
    const { api } = setup();
    expect(screen.getByTestId('api-base-url')).toHaveTextContent(`${ORIGIN}/v1`);
    expect(await screen.findByTestId('docs-version')).toHaveTextContent('Generated from the start form of version v1.0.2.');
    const inputs = screen.getByTestId('docs-inputs');
    expect(within(inputs).getAllByRole('row').map((r) => r.textContent)).toEqual([
      'VariableLabelTypeRequiredOptions / file types',
      'topicTopicTextYes—',
      "toneToneSelectNoit's formal / casual",
      'max_wordsMax wordsNumberNo—',
      'briefBriefSingle fileNo.pdf',
    ]);
    // The run call is open with its curl snippet naming the real inputs and the key placeholder.
    const curl = screen.getByTestId('endpoint-chat-curl');
    expect(curl).toHaveTextContent(`curl -X POST '${ORIGIN}/v1/chat-messages'`);
    expect(curl).toHaveTextContent('Authorization: Bearer {{API_KEY}}');
    expect(curl.textContent).toContain(`"tone": "it'\\''s formal"`);
    expect(screen.getByTestId('endpoint-completions')).toHaveTextContent('/chat/completions');
    expect(screen.getByText(new RegExp(`model to the app id ${api.appId}`))).toBeInTheDocument();
    // Chat apps can be embedded; the MCP server is for workflows.
    expect(screen.getByTestId('embed-section')).toBeInTheDocument();
    expect(screen.queryByTestId('mcp-line')).toBeNull();
  });

  it('updates the bubble snippet with its options', async () => {
    const { api, user } = setup();
    const bubble = await screen.findByTestId('embed-bubble');
    expect(bubble).toHaveTextContent(`<script src="${ORIGIN}/embed.js" data-app-id="${api.appId}" defer></script>`);
    await user.click(screen.getByRole('radio', { name: 'Bottom left' }));
    await user.click(screen.getByRole('switch', { name: 'Open when the page loads' }));
    expect(bubble).toHaveTextContent(`data-app-id="${api.appId}" data-position="left" data-open="true" defer`);
    expect(screen.getByTestId('embed-iframe')).toHaveTextContent(`<iframe src="${ORIGIN}/portal/chat/${api.appId}"`);
  });

  it('says when nothing is published and describes the draft', async () => {
    setup({ unpublished: true, mode: 'workflow' });
    expect(await screen.findByTestId('docs-unpublished')).toHaveTextContent('This app is not published yet');
    expect(screen.getByTestId('docs-no-inputs')).toBeInTheDocument();
    expect(screen.getByTestId('endpoint-run')).toHaveTextContent('/workflows/run');
    expect(screen.queryByTestId('endpoint-chat')).toBeNull();
  });

  it('shows a workflow its space’s MCP server; the owner offers the app as a tool', async () => {
    const { api, user } = setup({ mode: 'workflow' });
    const line = await screen.findByTestId('mcp-line');
    expect(within(line).getByTestId('mcp-endpoint')).toHaveTextContent(`${ORIGIN}/v1/mcp/${api.workspaceId}`);
    await waitFor(() => expect(within(line).getByRole('switch')).toBeEnabled());
    expect(line).toHaveTextContent('This app is not offered as an MCP tool');
    await user.click(within(line).getByRole('switch'));
    await waitFor(() => expect(line).toHaveTextContent('This app is offered as an MCP tool'));
    expect(api.calls.find((c) => c.method === 'setMcp')?.args[1]).toEqual({ enabled: true, app_ids: [api.appId] });
    expect(screen.queryByTestId('embed-section')).toBeNull();

    // The MCP keys are the space's, apart from the app's keys.
    await user.click(within(line).getByTestId('mcp-key-create'));
    await user.type(within(await screen.findByTestId('mcp-key-create-dialog')).getByTestId('mcp-key-name'), 'Claude Desktop');
    await user.click(screen.getByTestId('mcp-key-create-submit'));
    expect(await screen.findByTestId('mcp-key-secret')).toHaveValue(api.secrets[0]);
    await user.click(screen.getByTestId('mcp-key-secret-done'));
    await waitFor(() => expect(within(line).getAllByTestId(/^mcp-key-row-/)).toHaveLength(1));
    expect(api.spaceKeys.map((k) => k.name)).toEqual(['Claude Desktop']);
    expect(api.keys.map((k) => k.name)).not.toContain('Claude Desktop');
  });

  it('disables the MCP switch for anyone but the owner, with the reason', async () => {
    setup({ mode: 'workflow', role: 'admin', mcpExposed: true });
    const line = await screen.findByTestId('mcp-line');
    expect(line).toHaveTextContent('This app is offered as an MCP tool');
    expect(within(line).getByRole('switch')).toBeDisabled();
    expect(line).toHaveTextContent("Only the project space's owner chooses which workflows are offered");
    // An admin manages the app's keys, not the space's MCP keys.
    expect(within(line).getByTestId('mcp-key-create')).toBeDisabled();
    expect(line).toHaveTextContent("Only the project space's owner creates and revokes MCP keys");
    expect(screen.getByTestId('key-create')).toBeEnabled();
  });
});
