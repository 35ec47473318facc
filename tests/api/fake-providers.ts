import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Local fake model providers for tests: real HTTP servers speaking the OpenAI chat-completions /
 * embeddings protocol and Anthropic's Messages protocol, streaming with SSE. They record every
 * request so tests can check what the production client sent.
 */

export const GOOD_KEY = 'sk-test-good-key-1234567890';

export interface Recorded {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: any;
}

export interface FakeServer {
  baseUrl: string;
  requests: Recorded[];
  close(): Promise<void>;
}

async function readJson(req: http.IncomingMessage): Promise<any> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : null;
}

function json(res: http.ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** Writes SSE events one by one with a small pause, so the client sees real chunks. */
async function sse(res: http.ServerResponse, events: { event?: string; data: unknown }[]) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  for (const e of events) {
    res.write(`${e.event ? `event: ${e.event}\n` : ''}data: ${typeof e.data === 'string' ? e.data : JSON.stringify(e.data)}\n\n`);
    await new Promise((r) => setTimeout(r, 5));
  }
  res.end();
}

async function serve(handler: (req: http.IncomingMessage, body: any, res: http.ServerResponse) => Promise<void> | void): Promise<FakeServer> {
  const requests: Recorded[] = [];
  const server = http.createServer(async (req, res) => {
    try {
      const body = await readJson(req);
      requests.push({ path: req.url ?? '', headers: req.headers, body });
      await handler(req, body, res);
    } catch (e) {
      json(res, 500, { error: { message: String(e) } });
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** The text the fake models answer, in the chunks they stream it. */
export const ANSWER_CHUNKS = ['Hel', 'lo', ', wor', 'ld'];

/**
 * GBI's SQL writer (src/server/gbi/ask.ts: its system prompt lists the tables): answers the total
 * of the first numeric column by the first text column of the first table, as a model would for
 * "total by …". Any other request answers ANSWER_CHUNKS.
 */
export function gbiSql(messages: { role: string; content: unknown }[]): string | null {
  const system = messages[0]?.role === 'system' && typeof messages[0].content === 'string' ? messages[0].content : '';
  if (!system.startsWith('You write SQL')) return null;
  const table = /^TABLE (\S+)/m.exec(system)?.[1];
  const text = /^ {2}(\w+) (?:VARCHAR|text|character varying)/m.exec(system)?.[1];
  const num = /^ {2}(\w+) (?:DOUBLE|BIGINT|INTEGER|DECIMAL[^ ]*|numeric|integer|bigint)/m.exec(system)?.[1];
  if (!table || !text || !num) return 'select 1';
  return `\`\`\`sql\nselect ${text}, sum(${num}) as total from ${table} group by ${text} order by total desc\n\`\`\``;
}

/** OpenAI-compatible: /v1/chat/completions (stream or not, tool calls) and /v1/embeddings. */
export function fakeOpenAi(): Promise<FakeServer> {
  return serve(async (req, body, res) => {
    if (req.headers.authorization !== `Bearer ${GOOD_KEY}`) return json(res, 401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } });
    if (body?.model === 'missing-model') return json(res, 404, { error: { message: 'The model `missing-model` does not exist' } });
    const created = 1_700_000_000;
    if (req.url === '/v1/embeddings') {
      const inputs: string[] = Array.isArray(body.input) ? body.input : [body.input];
      return json(res, 200, {
        object: 'list',
        model: body.model,
        data: inputs.map((text, index) => ({ object: 'embedding', index, embedding: [text.length, index, 0.5] })),
        usage: { prompt_tokens: inputs.length * 2, total_tokens: inputs.length * 2 },
      });
    }
    if (req.url !== '/v1/chat/completions') return json(res, 404, { error: { message: 'no such route' } });
    const usage = { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 };
    if (!body.stream) {
      return json(res, 200, {
        id: 'chatcmpl-1',
        object: 'chat.completion',
        created,
        model: body.model,
        choices: [{ index: 0, message: { role: 'assistant', content: 'p' }, finish_reason: 'length' }],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      });
    }
    const chunk = (delta: unknown, finish_reason: string | null = null) => ({
      data: { id: 'chatcmpl-1', object: 'chat.completion.chunk', created, model: body.model, choices: [{ index: 0, delta, finish_reason }] },
    });
    const lastRole = body.messages.at(-1)?.role;
    const events: { data: unknown }[] = [chunk({ role: 'assistant', content: '' })];
    if (body.tools?.length && lastRole === 'user') {
      events.push(chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: body.tools[0].function.name, arguments: '' } }] }));
      for (const part of ['{"city"', ':"Par', 'is"}']) events.push(chunk({ tool_calls: [{ index: 0, function: { arguments: part } }] }));
      events.push(chunk({}, 'tool_calls'));
    } else {
      const sql = gbiSql(body.messages);
      for (const t of sql ? [sql] : ANSWER_CHUNKS) events.push(chunk({ content: t }));
      events.push(chunk({}, 'stop'));
    }
    events.push({ data: { id: 'chatcmpl-1', object: 'chat.completion.chunk', created, model: body.model, choices: [], usage } });
    events.push({ data: '[DONE]' });
    await sse(res, events);
  });
}

/** Anthropic Messages API: /v1/messages with its event protocol (text and tool_use blocks). */
export function fakeAnthropic(): Promise<FakeServer> {
  return serve(async (req, body, res) => {
    if (req.headers['x-api-key'] !== GOOD_KEY) return json(res, 401, { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } });
    if (req.url !== '/v1/messages') return json(res, 404, { type: 'error', error: { type: 'not_found_error', message: 'no such route' } });
    const message = { id: 'msg_1', type: 'message', role: 'assistant', model: body.model, content: [] as unknown[], stop_reason: null, stop_sequence: null, usage: { input_tokens: 9, output_tokens: 1 } };
    if (!body.stream) {
      return json(res, 200, { ...message, content: [{ type: 'text', text: 'p' }], stop_reason: 'max_tokens', usage: { input_tokens: 1, output_tokens: 1 } });
    }
    const ev = (type: string, data: Record<string, unknown>) => ({ event: type, data: { type, ...data } });
    const events = [ev('message_start', { message }), ev('ping', {})];
    const lastContent = body.messages.at(-1)?.content;
    const answeringTool = Array.isArray(lastContent) && lastContent.some((c: { type: string }) => c.type === 'tool_result');
    if (body.tools?.length && !answeringTool) {
      events.push(ev('content_block_start', { index: 0, content_block: { type: 'tool_use', id: 'toolu_1', name: body.tools[0].name, input: {} } }));
      for (const part of ['{"city"', ':"Par', 'is"}']) events.push(ev('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: part } }));
      events.push(ev('content_block_stop', { index: 0 }));
      events.push(ev('message_delta', { delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 7 } }));
    } else {
      events.push(ev('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }));
      for (const t of ANSWER_CHUNKS) events.push(ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text: t } }));
      events.push(ev('content_block_stop', { index: 0 }));
      events.push(ev('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 4 } }));
    }
    events.push(ev('message_stop', {}));
    await sse(res, events);
  });
}
