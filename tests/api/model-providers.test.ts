import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { useStudio, DEFAULT_TENANT_ID } from './harness';
import { ANSWER_CHUNKS, fakeAnthropic, fakeOpenAi, GOOD_KEY, type FakeServer } from './fake-providers';
import { ModelService } from '../../src/server/providers/model-service';
import { ModelError } from '../../src/server/providers/errors';
import type { ChatEvent, ToolSpec } from '../../schemas/model';

/**
 * ModelService (the production client: the `ai` SDK, and for plain-text OpenAI-compatible chats
 * its own Node-stream client, openai-stream.ts) against local fake providers over real HTTP
 * and SSE: streaming text, tool calls, usage, embeddings, parameters on the wire, errors, and the
 * credential test endpoint.
 */

const h = useStudio();
const ADMIN_URL = '/api/v1/admin/models';
let oa: FakeServer;
let an: FakeServer;
let svc: ModelService;

const WEATHER: ToolSpec = {
  name: 'get_weather',
  description: 'Weather of a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

async function collect(it: AsyncIterable<ChatEvent>): Promise<ChatEvent[]> {
  const out: ChatEvent[] = [];
  for await (const ev of it) out.push(ev);
  return out;
}

const call = (method: string, url: string, body?: unknown) => h.call(method, `${ADMIN_URL}${url}`, { token: h.adminToken, body });

beforeAll(async () => {
  oa = await fakeOpenAi();
  an = await fakeAnthropic();
  // The fakes are local model servers: the operator's allow-list opens them.
  h.allowOutbound(oa.baseUrl, an.baseUrl);
  svc = new ModelService(h.studio.ctx);
  // Configure through the admin endpoints, as the screen does.
  expect((await call('POST', '/model-providers/openai_api_compatible/credentials', { credentials: { base_url: oa.baseUrl, api_key: GOOD_KEY } })).status).toBe(200);
  for (const body of [
    { model: 'fake-chat', model_type: 'llm', features: ['tool-call', 'streaming'] },
    { model: 'fake-embed', model_type: 'text-embedding', features: [] },
  ]) {
    const r = await call('POST', '/model-providers/openai_api_compatible/models/model-custom', body);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  }
  expect((await call('POST', '/model-providers/anthropic/credentials', { credentials: { base_url: an.baseUrl, api_key: GOOD_KEY } })).status).toBe(200);
});

afterAll(async () => {
  await oa?.close();
  await an?.close();
});

const tenantId = DEFAULT_TENANT_ID;

describe('OpenAI-compatible through ModelService', () => {
  it('streams the answer chunk by chunk, then usage and finish, sending the parameters', async () => {
    const events = await collect(
      svc.chat({
        tenantId,
        provider: 'openai_api_compatible',
        model: 'fake-chat',
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Say hello' },
        ],
        params: { temperature: 0.3, top_p: 0.9, frequency_penalty: -1.5, presence_penalty: 2, max_tokens: 50, stop: ['END', '###'] },
      }),
    );
    expect(events.filter((e) => e.type === 'text').map((e) => (e as { text: string }).text)).toEqual(ANSWER_CHUNKS);
    expect(events.at(-2)).toEqual({ type: 'usage', usage: { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 } });
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
    const sent = oa.requests.at(-1)!;
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.body).toMatchObject({
      model: 'fake-chat',
      stream: true,
      temperature: 0.3,
      top_p: 0.9,
      frequency_penalty: -1.5,
      presence_penalty: 2,
      max_tokens: 50,
      stop: ['END', '###'],
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Say hello' },
      ],
    });
  });

  it('reads a text chat as a Node stream: no web stream between the provider and the tokens', async () => {
    // The SDK's path pipes the body through a TextDecoderStream, an event-source parser and two
    // TransformStreams: the largest part of a portal chat's main-thread time (bench:portal).
    const piped = vi.spyOn(ReadableStream.prototype, 'pipeThrough');
    try {
      const events = await collect(svc.chat({ tenantId, provider: 'openai_api_compatible', model: 'fake-chat', messages: [{ role: 'user', content: 'Say hello' }] }));
      expect(events.filter((e) => e.type === 'text').map((e) => (e as { text: string }).text)).toEqual(ANSWER_CHUNKS);
      expect(piped).not.toHaveBeenCalled();
    } finally {
      piped.mockRestore();
    }
  });

  it('reports a streamed tool call with its parsed arguments, and sends the tool result back', async () => {
    const events = await collect(svc.chat({ tenantId, provider: 'openai_api_compatible', model: 'fake-chat', messages: [{ role: 'user', content: 'Weather in Paris?' }], tools: [WEATHER] }));
    expect(events.find((e) => e.type === 'tool-call')).toEqual({ type: 'tool-call', call: { id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } } });
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'tool-calls' });
    expect(oa.requests.at(-1)!.body.tools[0]).toMatchObject({ type: 'function', function: { name: 'get_weather', parameters: WEATHER.parameters } });

    const next = await collect(
      svc.chat({
        tenantId,
        provider: 'openai_api_compatible',
        model: 'fake-chat',
        tools: [WEATHER],
        messages: [
          { role: 'user', content: 'Weather in Paris?' },
          { role: 'assistant', content: '', tool_calls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } }] },
          { role: 'tool', tool_call_id: 'call_1', name: 'get_weather', content: '18°C, sunny' },
        ],
      }),
    );
    expect(next.filter((e) => e.type === 'text').length).toBe(ANSWER_CHUNKS.length);
    const msgs = oa.requests.at(-1)!.body.messages;
    expect(msgs[1]).toMatchObject({ role: 'assistant', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] });
    expect(msgs[2]).toEqual({ role: 'tool', tool_call_id: 'call_1', content: '18°C, sunny' });
  });

  it('asks for a JSON answer when response_format is json_object', async () => {
    await collect(svc.chat({ tenantId, provider: 'openai_api_compatible', model: 'fake-chat', messages: [{ role: 'user', content: 'json' }], params: { response_format: 'json_object' } }));
    expect(oa.requests.at(-1)!.body.response_format).toEqual({ type: 'json_object' });
  });

  it('embeds texts through the embeddings endpoint', async () => {
    const r = await svc.embed({ tenantId, provider: 'openai_api_compatible', model: 'fake-embed', texts: ['a', 'bcd'] });
    expect(r.embeddings).toEqual([
      [1, 0, 0.5],
      [3, 1, 0.5],
    ]);
    expect(r.usage.tokens).toBe(4);
    expect(oa.requests.at(-1)).toMatchObject({ path: '/v1/embeddings', body: { model: 'fake-embed', input: ['a', 'bcd'] } });
  });

  it('stops a stream when the signal aborts', async () => {
    const ac = new AbortController();
    const seen: ChatEvent[] = [];
    const run = async () => {
      for await (const ev of svc.chat({ tenantId, provider: 'openai_api_compatible', model: 'fake-chat', messages: [{ role: 'user', content: 'hi' }], signal: ac.signal })) {
        seen.push(ev);
        if (ev.type === 'text') ac.abort();
      }
    };
    const err = await run().then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(ModelError);
    expect((err as ModelError).code).toBe('cancelled');
    expect(seen.filter((e) => e.type === 'text')).toHaveLength(1);
  });
});

describe('Anthropic through ModelService', () => {
  it('streams text deltas with usage and the stop reason, sending the key header and system prompt', async () => {
    const events = await collect(
      svc.chat({
        tenantId,
        provider: 'anthropic',
        model: 'claude-haiku-4-5',
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Say hello' },
        ],
        params: { temperature: 0.5, max_tokens: 64, stop: ['END'] },
      }),
    );
    expect(events.filter((e) => e.type === 'text').map((e) => (e as { text: string }).text)).toEqual(ANSWER_CHUNKS);
    expect(events.at(-2)).toMatchObject({ type: 'usage', usage: { prompt_tokens: 9, completion_tokens: 4 } });
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
    const sent = an.requests.at(-1)!;
    expect(sent.headers['x-api-key']).toBe(GOOD_KEY);
    expect(sent.body).toMatchObject({ model: 'claude-haiku-4-5', stream: true, max_tokens: 64, temperature: 0.5, stop_sequences: ['END'], system: [{ type: 'text', text: 'Be brief.' }] });
  });

  it('reports a tool_use block as a tool call', async () => {
    const events = await collect(svc.chat({ tenantId, provider: 'anthropic', model: 'claude-haiku-4-5', messages: [{ role: 'user', content: 'Weather in Paris?' }], tools: [WEATHER] }));
    expect(events.find((e) => e.type === 'tool-call')).toEqual({ type: 'tool-call', call: { id: 'toolu_1', name: 'get_weather', arguments: { city: 'Paris' } } });
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'tool-calls' });
    expect(an.requests.at(-1)!.body.tools[0]).toMatchObject({ name: 'get_weather', input_schema: WEATHER.parameters });
  });

  it('has no embeddings', async () => {
    await expect(svc.embed({ tenantId, provider: 'anthropic', model: 'claude-haiku-4-5', texts: ['x'] })).rejects.toMatchObject({ code: 'model_not_found' });
  });
});

describe('errors as ModelError codes', () => {
  it('refuses unconfigured providers, unknown and disabled models before any request', async () => {
    const before = oa.requests.length;
    const chat = (provider: string, model: string) => collect(svc.chat({ tenantId, provider, model, messages: [{ role: 'user', content: 'x' }] }));
    await expect(chat('deepseek', 'deepseek-chat')).rejects.toMatchObject({ code: 'not_configured' });
    await expect(chat('nope', 'x')).rejects.toMatchObject({ code: 'not_configured' });
    await expect(chat('openai_api_compatible', 'not-added')).rejects.toMatchObject({ code: 'model_not_found' });
    expect((await call('PUT', '/model-providers/openai_api_compatible/models/disable', { model: 'fake-chat', model_type: 'llm' })).status).toBe(200);
    await expect(chat('openai_api_compatible', 'fake-chat')).rejects.toMatchObject({ code: 'model_disabled' });
    expect((await call('PUT', '/model-providers/openai_api_compatible/models/enable', { model: 'fake-chat', model_type: 'llm' })).status).toBe(200);
    expect(oa.requests.length).toBe(before);
  });

  it('maps a refused key to unauthorized (no retries on 4xx)', async () => {
    const other = new ModelService(h.studio.ctx);
    await call('POST', '/model-providers/openai_api_compatible/credentials', { credentials: { base_url: oa.baseUrl, api_key: 'sk-wrong-key-000000000' } });
    const before = oa.requests.length;
    try {
      await expect(collect(other.chat({ tenantId, provider: 'openai_api_compatible', model: 'fake-chat', messages: [{ role: 'user', content: 'x' }] }))).rejects.toMatchObject({
        code: 'unauthorized',
        status: 401,
      });
      expect(oa.requests.length - before).toBe(1);
    } finally {
      await call('POST', '/model-providers/openai_api_compatible/credentials', { credentials: { base_url: oa.baseUrl, api_key: GOOD_KEY } });
    }
  });
});

it('describes every model route in the OpenAPI document', async () => {
  const doc = await h.call('GET', '/api/v1/openapi.json');
  expect(doc.status).toBe(200);
  const paths = Object.keys(JSON.parse(doc.raw.body).paths);
  expect(paths).toEqual(
    expect.arrayContaining([
      '/api/v1/admin/models/model-providers/{provider}/credentials',
      '/api/v1/admin/models/model-providers/{provider}/models/model-custom',
      '/api/v1/admin/models/tenant-default/all',
      '/api/v1/console/models/parameter-rules',
      '/api/v1/console/models/model-parameter-suggestions',
    ]),
  );
});

describe('POST .../credentials/validate (a real tiny request)', () => {
  const validate = (provider: string, body: unknown) => call('POST', `/model-providers/${provider}/credentials/validate`, body);

  it('succeeds with good credentials, using the saved key when the form shows it masked', async () => {
    const saved = await call('GET', '/model-providers/openai_api_compatible/credentials');
    const masked = saved.body.data.credentials.api_key;
    expect(masked).not.toBe(GOOD_KEY);
    const r = await validate('openai_api_compatible', { credentials: { base_url: oa.baseUrl, api_key: masked }, model: 'fake-chat' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data).toMatchObject({ ok: true });
    expect(oa.requests.at(-1)!.body).toMatchObject({ model: 'fake-chat', max_tokens: 1 });
    const emb = await validate('openai_api_compatible', { model: 'fake-embed', model_type: 'text-embedding' });
    expect(emb.body.data).toMatchObject({ ok: true });
    const anth = await validate('anthropic', { credentials: { base_url: an.baseUrl, api_key: GOOD_KEY } });
    expect(anth.body.data).toMatchObject({ ok: true });
    expect(an.requests.at(-1)!.body).toMatchObject({ model: 'claude-sonnet-4-5', max_tokens: 1 });
  });

  it('answers a clear code and message for a wrong key, an unknown model and an unreachable server', async () => {
    const bad = await validate('openai_api_compatible', { credentials: { base_url: oa.baseUrl, api_key: 'sk-nope-nope-nope-nope' }, model: 'fake-chat' });
    expect(bad.body.data).toMatchObject({ ok: false, error_code: 'unauthorized' });
    expect(bad.body.data.message).toContain('Incorrect API key');
    const anthBad = await validate('anthropic', { credentials: { base_url: an.baseUrl, api_key: 'wrong' } });
    expect(anthBad.body.data).toMatchObject({ ok: false, error_code: 'unauthorized' });
    expect(anthBad.body.data.message).toContain('invalid x-api-key');
    const missing = await validate('openai_api_compatible', { credentials: { base_url: oa.baseUrl, api_key: GOOD_KEY }, model: 'missing-model' });
    expect(missing.body.data).toMatchObject({ ok: false, error_code: 'model_not_found' });
    // A loopback port the allow-list does not name is refused before any request...
    const refused = await validate('openai_api_compatible', { credentials: { base_url: 'http://127.0.0.1:9/v1', api_key: GOOD_KEY }, model: 'fake-chat' });
    expect(refused.body).toMatchObject({ code: 'NETWORK-1000', data: { host: '127.0.0.1', port: 9 } });
    // ...and once opened, a port where nothing listens is unreachable.
    h.allowOutbound('127.0.0.1:9');
    const down = await validate('openai_api_compatible', { credentials: { base_url: 'http://127.0.0.1:9/v1', api_key: GOOD_KEY }, model: 'fake-chat' });
    expect(down.body.data).toMatchObject({ ok: false, error_code: 'unreachable' });
  });

  it('refuses bad input: no model to try, a bad URL, an unknown provider, a plain user', async () => {
    const noModel = await validate('vllm', { credentials: { base_url: oa.baseUrl, api_key: '' } });
    expect([noModel.status, noModel.body.code]).toEqual([400, 'VALIDATION-1000']);
    const badUrl = await validate('openai_api_compatible', { credentials: { base_url: 'ftp://x', api_key: GOOD_KEY }, model: 'fake-chat' });
    expect([badUrl.status, badUrl.body.code]).toEqual([400, 'VALIDATION-1000']);
    const unknown = await validate('nope', { model: 'x' });
    expect([unknown.status, unknown.body.code]).toEqual([400, 'VALIDATION-1000']);
  });
});
