import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { featuresOf, type FlowMode } from '../../../schemas/flow';
import { builtinPlugins } from '../builtin-plugins';
import { useSession } from '../../app/session';
import { configureRequest } from '../../api/request';
import { initI18n } from '../../i18n';
import { createNodeRegistry } from '../../plugin-sdk';
import type { AutosaveController, AutosaveSnapshot } from '../autosave';
import { saveFeatures } from '../editor/features-dialog';
import { createFlowStore } from '../store/create-flow-store';
import { DebugApiContext } from './debug-api';
import { DebugPane } from './debug-pane';
import { createScriptedDebugApi } from './scripted-debug-api';
import { chatRunEvents, eventScript } from './events.fixture';
import { runStoreOf } from './run-store';

/**
 * The pane against the real request layer with a fake fetch: each run answers a stream the test
 * writes frame by frame, so what shows between frames can be checked.
 */

const registry = createNodeRegistry(builtinPlugins);
const enc = new TextEncoder();

interface Call {
  url: string;
  method: string;
  body: unknown;
  headers: Record<string, string>;
  signal?: AbortSignal | null;
}
let calls: Call[] = [];
let streams: { send(e: { type: string }): void; close(): void }[] = [];

function fakeFetch(input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> {
  const url = String(input);
  calls.push({ url, method: init.method ?? 'GET', body: init.body ? JSON.parse(String(init.body)) : undefined, headers: init.headers as Record<string, string>, signal: init.signal });
  const json = (data: unknown) => new Response(JSON.stringify({ code: 0, msg: 'ok', data }), { status: 200, headers: { 'content-type': 'application/json' } });
  if (url.includes('/stop')) return Promise.resolve(json({ stopped: true }));
  if (url.includes('/variables')) return Promise.resolve(json(init.method === 'PUT' ? null : { variables: { topic: 'cats' } }));
  // The chat's voice bar asks what voice the tenant offers (debug-voice.test.tsx tests the bar).
  if (url.endsWith('/speech')) return Promise.resolve(json({ speech_to_text: false, text_to_speech: { provider: 'weft_offline', model: 'espeak-ng', offline: true } }));
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  init.signal?.addEventListener('abort', () => controller.error(new DOMException('aborted', 'AbortError')));
  streams.push({ send: (e) => controller.enqueue(enc.encode(`event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`)), close: () => controller.close() });
  return Promise.resolve(new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } }));
}

function fakeAutosave(status: AutosaveSnapshot['status'] = 'saved') {
  let flushed = 0;
  const snap: AutosaveSnapshot = { status, dirty: false, revision: 1 };
  const ctl: AutosaveController = {
    getSnapshot: () => snap,
    subscribe: () => () => {},
    flush: async () => void flushed++,
    retry: async () => {},
    reload: async () => {},
    overwrite: async () => {},
    dispose: () => {},
  };
  return { ctl, flushed: () => flushed };
}

function setup(mode: FlowMode, autosave = fakeAutosave()) {
  const store = createFlowStore({ registry, mode, freeze: false });
  store.updateConfig('start', ['variables'], [
    { name: 'topic', label: 'Topic', type: 'text', required: true, options: [], allowed_extensions: [] },
    { name: 'count', label: 'Count', type: 'number', required: false, options: [], allowed_extensions: [] },
  ]);
  const view = render(<DebugPane store={store} appId="app-1" workspaceId="ws-1" autosave={autosave.ctl} />);
  return { store, autosave, ...view };
}

const flush = () => act(async () => void (await new Promise((r) => setTimeout(r, 10))));

beforeAll(async () => {
  await initI18n('en');
  configureRequest({ fetch: fakeFetch as typeof fetch, baseUrl: '' });
});
afterAll(() => configureRequest({ fetch: undefined }));
beforeEach(() => {
  calls = [];
  streams = [];
  useSession.setState({ accessToken: 'tok', tenantId: 't1', workspaceId: 'other' } as never);
});
afterEach(cleanup);

describe('DebugPane, chat modes', () => {
  it('asks for required inputs, saves the draft, then streams the answer token by token with its trace', async () => {
    const { store, autosave } = setup('chatflow');
    fireEvent.change(screen.getByTestId('chat-input'), { target: { value: 'hi there' } });
    fireEvent.click(screen.getByTestId('chat-send'));
    expect(await screen.findByText('Topic is required')).toBeInTheDocument();
    expect(calls).toHaveLength(0);

    fireEvent.change(within(screen.getByTestId('run-field-topic')).getByRole('textbox'), { target: { value: 'cats' } });
    fireEvent.click(screen.getByTestId('chat-send'));
    await waitFor(() => expect(streams).toHaveLength(1));
    expect(autosave.flushed()).toBe(1);
    expect(calls[0]).toMatchObject({ method: 'POST', url: '/api/v1/console/apps/app-1/draft/chat-messages', body: { query: 'hi there', inputs: { topic: 'cats' } } });
    expect(calls[0].headers['X-Workspace-Id']).toBe('ws-1');
    expect(screen.getByTestId('chat-question')).toHaveTextContent('hi there');

    const events = chatRunEvents('run-1', 'c0000000-0000-4000-8000-000000000001');
    const shown: string[] = [];
    for (const e of events.slice(0, -1)) {
      streams[0].send(e);
      await flush();
      if (e.type === 'answer_chunk') shown.push(screen.getByTestId('chat-answer-text').textContent ?? '');
    }
    expect(shown).toEqual(['Hello', 'Hello, ', 'Hello, world']);
    expect(runStoreOf(store).getState().nodes.llm).toEqual({ status: 'succeeded', elapsedMs: 840 });
    expect(screen.getByTestId('chat-stop')).toBeInTheDocument();
    // A trace opened while the answer streams stays open when the run ends (the live answer becomes the finished one).
    fireEvent.click(within(screen.getByTestId('chat-trace')).getByText('Show trace'));
    await waitFor(() => expect(screen.getByTestId('chat-trace')).toHaveProperty('open', true));
    streams[0].send(events[events.length - 1]);
    streams[0].close();
    await waitFor(() => expect(screen.getByTestId('chat-send')).toBeInTheDocument());
    await flush();
    expect(screen.getByTestId('chat-trace')).toHaveProperty('open', true);

    const trace = screen.getByTestId('chat-trace');
    expect(within(trace).getByTestId('trace-item-llm')).toHaveTextContent('42 tokens');
    expect(within(trace).getByTestId('trace-item-llm')).toHaveTextContent('840 ms');
    expect(within(trace).getAllByTestId('run-status')[0]).toHaveTextContent('Succeeded');

    // The next message continues the conversation.
    fireEvent.change(screen.getByTestId('chat-input'), { target: { value: 'again' } });
    fireEvent.keyDown(screen.getByTestId('chat-input'), { key: 'Enter' });
    await waitFor(() => expect(streams).toHaveLength(2));
    // The last chat message sent (other calls, e.g. the installed plugins' list, may come after it).
    expect(calls.filter((c) => c.url.endsWith('/draft/chat-messages')).at(-1)?.body).toMatchObject({ query: 'again', conversation_id: 'c0000000-0000-4000-8000-000000000001' });
    streams[1].close();
    await waitFor(() => expect(screen.getAllByTestId('chat-answer')).toHaveLength(2));

    // Restart: a new conversation.
    fireEvent.click(screen.getByTestId('chat-restart'));
    expect(screen.queryAllByTestId('chat-question')).toHaveLength(0);
    fireEvent.change(screen.getByTestId('chat-input'), { target: { value: 'fresh' } });
    fireEvent.click(screen.getByTestId('chat-send'));
    await waitFor(() => expect(streams).toHaveLength(3));
    expect(calls.at(-1)?.body).not.toHaveProperty('conversation_id');
    streams[2].close();
  });

  it('stop calls the stop endpoint with the run id and closes the stream; the trace ends stopped', async () => {
    const { store } = setup('agent');
    fireEvent.change(within(screen.getByTestId('run-field-topic')).getByRole('textbox'), { target: { value: 'x' } });
    fireEvent.change(screen.getByTestId('chat-input'), { target: { value: 'long task' } });
    fireEvent.click(screen.getByTestId('chat-send'));
    await waitFor(() => expect(streams).toHaveLength(1));
    const e = eventScript('run-9');
    streams[0].send(e.created('c0000000-0000-4000-8000-000000000009'));
    streams[0].send(e.started('agent', 'agent'));
    await flush();
    expect(runStoreOf(store).getState().nodes.agent.status).toBe('running');
    fireEvent.click(screen.getByTestId('chat-stop'));
    await waitFor(() => expect(screen.getByTestId('chat-send')).toBeInTheDocument());
    const stop = calls.find((c) => c.url.endsWith('/stop'));
    expect(stop).toMatchObject({ method: 'POST', url: '/api/v1/console/apps/app-1/runs/run-9/stop' });
    expect(calls[0].signal?.aborted).toBe(true);
    expect(runStoreOf(store).getState().nodes.agent.status).toBe('stopped');
    expect(screen.getByTestId('chat-answer')).toHaveAttribute('data-status', 'stopped');
  });

  it('closing the pane mid-run stops the run on the server and closes the stream', async () => {
    const { unmount } = setup('chatflow');
    fireEvent.change(within(screen.getByTestId('run-field-topic')).getByRole('textbox'), { target: { value: 'x' } });
    fireEvent.change(screen.getByTestId('chat-input'), { target: { value: 'long task' } });
    fireEvent.click(screen.getByTestId('chat-send'));
    await waitFor(() => expect(streams).toHaveLength(1));
    streams[0].send(eventScript('run-7').created('c0000000-0000-4000-8000-000000000007'));
    await flush();
    unmount();
    await waitFor(() => expect(calls.some((c) => c.url.endsWith('/runs/run-7/stop'))).toBe(true));
    expect(calls[0].signal?.aborted).toBe(true);
  });

  it('does not run when the draft cannot be saved, and gives the message back', async () => {
    setup('chatflow', fakeAutosave('conflict'));
    fireEvent.change(within(screen.getByTestId('run-field-topic')).getByRole('textbox'), { target: { value: 'x' } });
    fireEvent.change(screen.getByTestId('chat-input'), { target: { value: 'hello' } });
    fireEvent.click(screen.getByTestId('chat-send'));
    expect(await screen.findByTestId('debug-error')).toHaveTextContent('settle the save conflict');
    // No run was asked for (the voice bar's GET …/speech is not one).
    expect(calls.filter((c) => !c.url.endsWith('/speech'))).toHaveLength(0);
    expect(screen.getByTestId('chat-input')).toHaveValue('hello');
    expect(screen.queryAllByTestId('chat-question')).toHaveLength(0);
  });
});

describe('DebugPane, the app features', () => {
  it('a new conversation shows the opening statement and at most the random-display count of suggested questions; a click asks one', async () => {
    const autosave = fakeAutosave();
    const store = createFlowStore({ registry, mode: 'chatflow', freeze: false });
    const questions = ['Where is my order?', 'How do I return an item?', 'Do you ship abroad?', 'What does shipping cost?'];
    store.edit((d) => {
      d.features = { ...featuresOf(d), opening_statement: 'Hello! Ask me about orders.', suggested_questions: questions, suggested_questions_random_count: 2 };
    });
    render(<DebugPane store={store} appId="app-1" workspaceId="ws-1" autosave={autosave.ctl} />);
    expect(screen.getByTestId('chat-opening')).toHaveTextContent('Hello! Ask me about orders.');
    const shown = within(screen.getByTestId('chat-suggestions')).getAllByRole('button');
    expect(shown).toHaveLength(2);
    for (const b of shown) expect(questions).toContain(b.textContent);
    expect(screen.queryByText('Send a message to start debugging')).toBeNull();

    const asked = shown[1].textContent!;
    fireEvent.click(shown[1]);
    await waitFor(() => expect(streams).toHaveLength(1));
    expect(calls[0].body).toMatchObject({ query: asked });
    expect(screen.getByTestId('chat-question')).toHaveTextContent(asked);
    // The opening statement stays at the top of the conversation; the suggestions go.
    expect(screen.getByTestId('chat-opening')).toHaveTextContent('Hello! Ask me about orders.');
    expect(screen.queryByTestId('chat-suggestions')).toBeNull();
    streams[0].close();
    await waitFor(() => expect(screen.getByTestId('chat-send')).toBeInTheDocument());

    // A new conversation shows them again; with a count of 0 every question.
    act(() => void saveFeatures(store, { ...featuresOf(store.getState().document), suggested_questions_random_count: 0 }));
    fireEvent.click(screen.getByTestId('chat-restart'));
    await waitFor(() => expect(within(screen.getByTestId('chat-suggestions')).getAllByRole('button').map((b) => b.textContent)).toEqual(questions));
  });
});

describe('DebugPane, conversation variables', () => {
  it('shows the declared defaults before the conversation, then the stored values, and saves edits with PUT', async () => {
    const autosave = fakeAutosave();
    const store = createFlowStore({ registry, mode: 'chatflow', freeze: false });
    store.edit((d) => {
      d.variables.conversation.push({ id: 'v1', name: 'topic', type: 'string', value: 'none', description: '' });
      d.variables.conversation.push({ id: 'v2', name: 'turns', type: 'number', value: 0, description: '' });
    });
    render(<DebugPane store={store} appId="app-1" workspaceId="ws-1" autosave={autosave.ctl} />);
    const vars = screen.getByTestId('conversation-variables');
    expect(within(vars).getByText('Shown and editable once the conversation has started')).toBeInTheDocument();
    expect(screen.getByTestId('conversation-variable-topic')).toHaveValue('none');
    expect(screen.getByTestId('conversation-variable-topic')).toHaveAttribute('readonly');

    fireEvent.change(screen.getByTestId('chat-input'), { target: { value: 'hi' } });
    fireEvent.click(screen.getByTestId('chat-send'));
    await waitFor(() => expect(streams).toHaveLength(1));
    for (const e of chatRunEvents('run-1', 'c0000000-0000-4000-8000-000000000001')) streams[0].send(e);
    streams[0].close();
    // After the run the pane reads what the conversation holds now.
    await waitFor(() => expect(screen.getByTestId('conversation-variable-topic')).toHaveValue('cats'));
    expect(calls.some((c) => c.method === 'GET' && c.url.includes('/conversations/c0000000-0000-4000-8000-000000000001/variables'))).toBe(true);
    expect(screen.getByTestId('conversation-variable-turns')).toHaveValue('0');

    fireEvent.change(screen.getByTestId('conversation-variable-turns'), { target: { value: 'not json' } });
    fireEvent.click(screen.getByTestId('conversation-variables-save'));
    expect(await screen.findByText('turns is not valid JSON')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);

    fireEvent.change(screen.getByTestId('conversation-variable-turns'), { target: { value: '3' } });
    fireEvent.change(screen.getByTestId('conversation-variable-topic'), { target: { value: 'dogs' } });
    fireEvent.click(screen.getByTestId('conversation-variables-save'));
    await waitFor(() => expect(calls.find((c) => c.method === 'PUT')).toMatchObject({ body: { variables: { topic: 'dogs', turns: 3 } } }));
  });
});

describe('DebugPane, files', () => {
  it('uploads the start form’s file and attachments, and sends them with the message', async () => {
    const api = createScriptedDebugApi({ delayMs: 1 });
    const store = createFlowStore({ registry, mode: 'chatflow', freeze: false });
    store.updateConfig('start', ['variables'], [{ name: 'doc', label: 'Document', type: 'file', required: true, options: [], allowed_extensions: ['.txt'] }]);
    render(
      <DebugApiContext value={api}>
        <DebugPane store={store} appId="app-1" workspaceId="ws-1" />
      </DebugApiContext>,
    );
    const file = new File(['hello'], 'notes.txt', { type: 'text/plain' });
    const formInput = screen.getByTestId('run-field-doc').querySelector('input[type=file]') as HTMLInputElement;
    fireEvent.change(formInput, { target: { files: [file] } });
    await waitFor(() => expect(api.calls.filter((c) => c.method === 'upload')).toHaveLength(1));

    fireEvent.click(screen.getByRole('button', { name: 'Add files' }));
    const attach = screen.getByTestId('debug-chat').querySelectorAll('input[type=file]');
    fireEvent.change(attach[attach.length - 1], { target: { files: [new File(['x'], 'photo.png', { type: 'image/png' })] } });
    await waitFor(() => expect(api.calls.filter((c) => c.method === 'upload')).toHaveLength(2));
    await screen.findByText('photo.png');

    fireEvent.change(screen.getByTestId('chat-input'), { target: { value: 'read it' } });
    fireEvent.click(screen.getByTestId('chat-send'));
    await waitFor(() => expect(api.calls.some((c) => c.method === 'chat')).toBe(true));
    const body = api.calls.find((c) => c.method === 'chat')!.args[0] as Record<string, unknown>;
    expect(body.inputs).toEqual({ doc: { id: 'file-1', name: 'notes.txt', size: 5, mime_type: 'text/plain' } });
    expect(body.files).toEqual([{ file_id: 'file-2', name: 'photo.png', type: 'image/png' }]);
    expect(screen.getByTestId('chat-question')).toHaveTextContent('photo.png');
  });
});

describe('DebugPane, workflow mode', () => {
  it('runs the start form and shows the outputs and the trace', async () => {
    setup('workflow');
    expect(screen.getByTestId('debug-pane')).toHaveAttribute('data-mode', 'workflow');
    fireEvent.change(within(screen.getByTestId('run-field-topic')).getByRole('textbox'), { target: { value: 'dogs' } });
    fireEvent.click(screen.getByTestId('workflow-run'));
    await waitFor(() => expect(streams).toHaveLength(1));
    expect(calls[0]).toMatchObject({ url: '/api/v1/console/apps/app-1/draft/workflow-runs', body: { inputs: { topic: 'dogs' } } });
    const e = eventScript('run-w');
    for (const ev of [e.created(), e.runStarted('workflow'), e.started('start', 'start'), e.finished('start', 'start', { topic: 'dogs' }), e.started('end', 'end'), e.finished('end', 'end', { result: 'ok' }), e.runFinished('', { result: 'ok' })]) streams[0].send(ev);
    streams[0].close();
    expect(await screen.findByTestId('workflow-outputs')).toHaveTextContent('"result": "ok"');
    expect(screen.getByTestId('trace-item-end')).toHaveAttribute('data-status', 'succeeded');
  });

  it('shows a code node waiting for a free sandbox, then how long it waited; a queue timeout says what it means', async () => {
    setup('workflow');
    fireEvent.change(within(screen.getByTestId('run-field-topic')).getByRole('textbox'), { target: { value: 'dogs' } });
    fireEvent.click(screen.getByTestId('workflow-run'));
    await waitFor(() => expect(streams).toHaveLength(1));
    const e = eventScript('run-q');
    for (const ev of [e.created(), e.runStarted('workflow'), e.started('start', 'start'), e.finished('start', 'start', { topic: 'dogs' }), e.started('code', 'code'), e.waiting('code', 'code', 2)]) streams[0].send(ev);
    const row = await screen.findByTestId('trace-item-code');
    await waitFor(() => expect(within(row).getByTestId('trace-waiting')).toHaveTextContent('Waiting for a free sandbox… (2 ahead)'));
    streams[0].send(e.waiting('code', 'code', 0));
    await waitFor(() => expect(within(row).getByTestId('trace-waiting')).toHaveTextContent(/^Waiting for a free sandbox…$/));
    streams[0].send(e.waiting('code', 'code', null, 2400));
    await waitFor(() => expect(within(row).queryByTestId('trace-waiting')).toBeNull());
    expect(within(row).getByTestId('trace-waited')).toHaveTextContent('Waited 2.40 s for a free sandbox');
    const c2 = { ...e.failed('c2', 'code', ''), error: { code: 'SANDBOX-QUEUE-TIMEOUT', message: 'No sandbox was free within 30000 ms: the code did not run' } };
    for (const ev of [e.finished('code', 'code', { result: 1 }), e.started('c2', 'code'), e.waiting('c2', 'code', 0), c2]) streams[0].send(ev);
    await waitFor(() => expect(screen.getByTestId('trace-item-c2')).toHaveAttribute('data-status', 'failed'));
    expect(within(screen.getByTestId('trace-item-c2')).queryByTestId('trace-waiting')).toBeNull();
    expect(within(screen.getByTestId('trace-item-c2')).getByTestId('trace-error')).toHaveTextContent('No code sandbox was free in time, so the code did not run. Try again later: No sandbox was free within 30000 ms');
  });

  it("says what a node's and the run's error codes mean, with the server's message and the code", async () => {
    setup('workflow');
    fireEvent.change(within(screen.getByTestId('run-field-topic')).getByRole('textbox'), { target: { value: 'dogs' } });
    fireEvent.click(screen.getByTestId('workflow-run'));
    await waitFor(() => expect(streams).toHaveLength(1));
    const e = eventScript('run-e');
    const failed = { ...e.failed('llm', 'llm', ''), error: { code: 'MODEL-UNAVAILABLE', message: 'The provider cannot be reached (ECONNREFUSED)' } };
    const runFailed = { ...e.runFailed('failed', ''), error: { code: 'RUN-1101', message: 'llm took longer than 10 s' } };
    for (const ev of [e.created(), e.runStarted('workflow'), e.started('start', 'start'), e.finished('start', 'start', { topic: 'dogs' }), e.started('llm', 'llm'), failed, runFailed]) streams[0].send(ev);
    streams[0].close();
    await waitFor(() => expect(screen.getByTestId('trace-item-llm')).toHaveAttribute('data-status', 'failed'));
    const [node] = within(screen.getByTestId('trace-item-llm')).getAllByTestId('trace-error');
    expect(node).toHaveTextContent('The model call failed: The provider cannot be reached (ECONNREFUSED) MODEL-UNAVAILABLE');
    const run = screen.getAllByTestId('trace-error').find((el) => el.getAttribute('role') === 'alert')!;
    expect(run).toHaveTextContent('The node took longer than its time limit: llm took longer than 10 s RUN-1101');
  });
});
