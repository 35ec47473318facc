import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import type { FlowDocument } from '../../schemas/flow';
import type { RunStreamEvent } from '../../schemas/run-api';
import { GOOD_KEY } from './fake-providers';
import type { Harness } from './harness';
import { expectOk } from './workspace-fixture';

/**
 * Helpers for the runs API tests: apps with a saved draft, the model providers pointed at local fake
 * servers, a slow OpenAI-compatible fake (to stop a run mid-stream) and an SSE reader.
 */

export { flow } from '../engine/kit';

export const RUNS = (appId: string) => `/api/v1/console/apps/${appId}`;
export const prompt = (role: string, text: string) => ({ role, text });
export const textInput = (name: string) => ({ name, label: '', type: 'text', required: true, options: [], allowed_extensions: [] });
export const model = (provider: string, name: string) => ({ provider, name, mode: 'chat', params: { temperature: 0.7, stop: [], response_format: 'text' } });

/**
 * Points a catalogue provider of the default tenant at a fake server (through the admin endpoint, as
 * the screen does), and opens that server's host:port in the outbound allow-list, as an operator
 * opens a local model server.
 */
export async function configureProvider(h: Harness, provider: string, baseUrl: string) {
  h.allowOutbound(baseUrl);
  const r = await h.call('POST', `/api/v1/admin/models/model-providers/${provider}/credentials`, {
    token: h.adminToken,
    body: { credentials: { base_url: baseUrl, api_key: GOOD_KEY } },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
}

/** Creates an app of the mode in the workspace and saves `document` as its draft. */
export async function createApp(h: Harness, token: string, workspaceId: string, name: string, document: FlowDocument): Promise<string> {
  const created = expectOk(
    await h.call('POST', '/api/v1/console/apps', { token, workspaceId, body: { name, description: name, type: document.mode, icon: { icon: 'bot' } } }),
  );
  await saveDraft(h, token, workspaceId, created.id, document);
  return created.id as string;
}

export async function saveDraft(h: Harness, token: string, workspaceId: string, appId: string, document: FlowDocument) {
  const draft = expectOk(await h.call('GET', `/api/v1/console/apps/${appId}/workflow`, { token, workspaceId }));
  expectOk(await h.call('PUT', '/api/v1/console/apps/workflow', { token, workspaceId, body: { app_id: appId, base_revision: draft.revision, document } }));
}

/** The events of an SSE body, in order. */
export function parseSse(body: string): RunStreamEvent[] {
  const out: RunStreamEvent[] = [];
  for (const frame of body.split('\n\n')) {
    if (!frame.trim()) continue;
    const lines = frame.split('\n');
    const event = lines.find((l) => l.startsWith('event: '))?.slice(7);
    const data = JSON.parse(lines.find((l) => l.startsWith('data: '))!.slice(6));
    expect(data.type).toBe(event);
    out.push(data);
  }
  return out;
}

/** Reads SSE frames from a fetch body as they arrive. */
export async function* readSse(body: ReadableStream<Uint8Array>): AsyncGenerator<RunStreamEvent> {
  const decoder = new TextDecoder();
  let buf = '';
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buf += decoder.decode(chunk, { stream: true });
    let at: number;
    while ((at = buf.indexOf('\n\n')) >= 0) {
      const frame = buf.slice(0, at);
      buf = buf.slice(at + 2);
      yield parseSse(`${frame}\n\n`)[0];
    }
  }
}

export interface SlowServer {
  baseUrl: string;
  close(): Promise<void>;
  /** Streams in progress (a stopped run's request is aborted, so this goes back to 0). */
  open(): number;
}

/**
 * An OpenAI-compatible chat server that streams `chunks` with `delayMs` between them: long enough to
 * stop a run in the middle of its answer.
 */
export async function slowOpenAi(chunks: string[], delayMs: number): Promise<SlowServer> {
  let open = 0;
  const server = http.createServer(async (req, res) => {
    for await (const _ of req) void _;
    open++;
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const send = (delta: unknown, finish: string | null = null) =>
      res.write(`data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`);
    let closed = false;
    res.on('close', () => {
      closed = true;
    });
    send({ role: 'assistant', content: '' });
    for (const c of chunks) {
      if (closed) break;
      send({ content: c });
      await new Promise((r) => setTimeout(r, delayMs));
    }
    if (!closed) {
      send({}, 'stop');
      res.write('data: [DONE]\n\n');
      res.end();
    }
    open--;
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    open: () => open,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** What a scripted model says to one request: text (streamed in 16-character pieces), or one tool call. */
export type ScriptedReply = string | { tool: string; args: string };

export interface ScriptedModel {
  baseUrl: string;
  /** The request bodies, in order. */
  requests: { body: any }[];
  close(): Promise<void>;
}

/**
 * An OpenAI-compatible chat server (POST /v1/chat/completions, streamed or not, key GOOD_KEY)
 * whose every answer `reply` decides from the request body: for agents, tool calls and answers.
 */
export async function scriptedOpenAi(reply: (body: any) => ScriptedReply | Promise<ScriptedReply>): Promise<ScriptedModel> {
  const requests: { body: any }[] = [];
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null');
    if (req.headers.authorization !== `Bearer ${GOOD_KEY}`) return res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":{"message":"bad key"}}');
    if (req.url !== '/v1/chat/completions') return res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"no such route"}}');
    requests.push({ body });
    const r = await reply(body);
    const created = 1_700_000_000;
    if (!body.stream) {
      const message = typeof r === 'string' ? { role: 'assistant', content: r } : { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: r.tool, arguments: r.args } }] };
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ id: 'c1', object: 'chat.completion', created, model: body.model, choices: [{ index: 0, message, finish_reason: typeof r === 'string' ? 'stop' : 'tool_calls' }], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } }));
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const chunk = (delta: unknown, finish: string | null = null) =>
      `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created, model: body.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    res.write(chunk({ role: 'assistant', content: '' }));
    if (typeof r === 'string') {
      for (let i = 0; i < r.length; i += 16) res.write(chunk({ content: r.slice(i, i + 16) }));
      res.write(chunk({}, 'stop'));
    } else {
      res.write(chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: r.tool, arguments: '' } }] }));
      res.write(chunk({ tool_calls: [{ index: 0, function: { arguments: r.args } }] }));
      res.write(chunk({}, 'tool_calls'));
    }
    res.end('data: [DONE]\n\n');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}
