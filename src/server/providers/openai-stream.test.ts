import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatEvent } from '../../../schemas/model';
import { createPolicyClient } from '../http/policy-fetch';
import { createOutboundPolicy } from '../security/outbound-policy';
import { ModelError } from './errors';
import { isPlainText, streamOpenAiText } from './openai-stream';

// The SDK-free OpenAI-compatible text client against a real local server speaking the protocol:
// what it sends, how it reads SSE split anywhere, and its errors and retries as the SDK's.

const client = createPolicyClient(createOutboundPolicy({ settings: { outboundAllow: ['127.0.0.1'], mcpStdioCommands: [], httpAllowPrivate: false } }), 'model');
const seen: { url?: string; headers: http.IncomingHttpHeaders; body: any }[] = [];
/** What the server answers next, by the request's model name. */
const answers: Record<string, (res: http.ServerResponse) => void | Promise<void>> = {};
let server: http.Server;
let base = '';

const chunk = (delta: unknown, finish_reason: string | null = null) => `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason }] })}\n\n`;
const usage = `data: ${JSON.stringify({ id: 'c1', choices: [], usage: { prompt_tokens: 7, completion_tokens: 3, total_tokens: 99 } })}\n\n`;

beforeAll(async () => {
  server = http.createServer(async (req, res) => {
    let text = '';
    for await (const c of req) text += c;
    const body = JSON.parse(text);
    seen.push({ url: req.url, headers: req.headers, body });
    await answers[body.model]!(res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

async function collect(model: string, extra: Partial<Parameters<typeof streamOpenAiText>[1]> = {}): Promise<ChatEvent[]> {
  const out: ChatEvent[] = [];
  for await (const e of streamOpenAiText(client, { baseUrl: base, apiKey: 'sk-1', model, messages: [{ role: 'user', content: 'Hi' }], maxRetries: 2, ...extra })) out.push(e);
  return out;
}

describe('streamOpenAiText', () => {
  it('sends the SDK provider body and reads text, usage and finish from SSE split at any byte', async () => {
    answers.split = async (res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      // Lines cut mid-way, a multi-byte character cut between writes, CRLF endings, [DONE].
      const wire = Buffer.from(chunk({ role: 'assistant', content: '' }) + chunk({ content: 'Grüß ' }).replace(/\n\n$/, '\r\n\r\n') + chunk({ content: [{ type: 'text', text: 'dich' }] }) + chunk({}, 'stop') + usage + 'data: [DONE]\n\n');
      for (let i = 0; i < wire.length; i += 7) {
        res.write(wire.subarray(i, i + 7));
        await new Promise((r) => setImmediate(r));
      }
      res.end();
    };
    const events = await collect('split', {
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'system', content: 'Be kind.' },
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello' },
        { role: 'user', content: 'Again' },
      ],
      params: { temperature: 0.2, max_tokens: 9, stop: ['END'], response_format: 'json_object' },
    });
    expect(events).toEqual([
      { type: 'text', text: 'Grüß ' },
      { type: 'text', text: 'dich' },
      // The total is the sum, as the SDK counts it (not the provider's total_tokens).
      { type: 'usage', usage: { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 } },
      { type: 'finish', reason: 'stop' },
    ]);
    const sent = seen.at(-1)!;
    expect(sent.url).toBe('/v1/chat/completions');
    expect(sent.headers.authorization).toBe('Bearer sk-1');
    expect(sent.body).toEqual({
      model: 'split',
      max_tokens: 9,
      temperature: 0.2,
      response_format: { type: 'json_object' },
      stop: ['END'],
      messages: [
        { role: 'system', content: 'Be brief.\n\nBe kind.' },
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello' },
        { role: 'user', content: 'Again' },
      ],
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('retries a 503 before the answer starts, and maps a 400 (not retried) with the provider message', async () => {
    let calls = 0;
    answers.flaky = (res) => {
      if (++calls === 1) {
        res.writeHead(503, { 'content-type': 'application/json', 'retry-after-ms': '1' });
        res.end('{"error":{"message":"busy"}}');
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(chunk({ content: 'ok' }) + chunk({}, 'length'));
    };
    expect((await collect('flaky')).map((e) => e.type)).toEqual(['text', 'usage', 'finish']);
    expect(calls).toBe(2);

    const before = seen.length;
    answers.bad = (res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end('{"error":{"message":"temperature is too high"}}');
    };
    const err = await collect('bad').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelError);
    expect(err).toMatchObject({ code: 'bad_request', status: 400, message: 'The provider rejected the request: temperature is too high' });
    expect(seen.length - before).toBe(1);
  });

  it('fails with provider_error on an error chunk and on a stream that ends without a finish reason', async () => {
    answers.broken = (res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(chunk({ content: 'a' }) + `data: ${JSON.stringify({ error: { message: 'overloaded mid-way' } })}\n\n`);
    };
    await expect(collect('broken')).rejects.toMatchObject({ code: 'provider_error', message: 'overloaded mid-way' });
    answers.cut = (res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(chunk({ content: 'a' }));
    };
    await expect(collect('cut')).rejects.toMatchObject({ code: 'provider_error', message: 'Response stream ended without a finish reason.' });
  });

  it('stops when the signal aborts mid-stream (cancelled), and the connection is not left half read', async () => {
    answers.endless = (res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(chunk({ content: 'first' }));
    };
    const ac = new AbortController();
    const texts: string[] = [];
    const err = await (async () => {
      for await (const e of streamOpenAiText(client, { baseUrl: base, model: 'endless', messages: [{ role: 'user', content: 'x' }], signal: ac.signal })) {
        if (e.type === 'text') texts.push(e.text);
        ac.abort();
      }
    })().catch((e: unknown) => e);
    expect(texts).toEqual(['first']);
    expect(err).toMatchObject({ code: 'cancelled' });
  });

  it('takes text only: images, tool calls and tool results go to the SDK provider', () => {
    expect(isPlainText([{ role: 'system', content: 's' }, { role: 'user', content: 'u' }, { role: 'assistant', content: 'a' }])).toBe(true);
    expect(isPlainText([{ role: 'user', content: 'u', images: ['https://x/y.png'] }])).toBe(false);
    expect(isPlainText([{ role: 'assistant', content: '', tool_calls: [{ id: '1', name: 'f', arguments: {} }] }])).toBe(false);
    expect(isPlainText([{ role: 'tool', tool_call_id: '1', name: 'f', content: 'r' }])).toBe(false);
  });
});
