// @vitest-environment node
import { APICallError } from 'ai';
import { describe, expect, it } from 'vitest';
import { ModelParams } from '../../../schemas/model';
import { CATALOGUE, credentialFieldsOf, parameterRulesOf, parameterSuggestionsOf, providerOf } from './catalogue';
import { toModelError } from './errors';
import { toModelMessages } from './model-service';

const apiError = (statusCode: number, body = '{"error":{"message":"nope"}}') =>
  new APICallError({ message: 'failed', url: 'http://x/v1/chat/completions', requestBodyValues: {}, statusCode, responseBody: body });

describe('catalogue', () => {
  it('has unique provider ids, and every predefined model has a type the provider supports', () => {
    const ids = CATALOGUE.map((p) => p.provider);
    expect(new Set(ids).size).toBe(ids.length);
    for (const p of CATALOGUE) for (const m of p.models) expect(p.supported_model_types).toContain(m.model_type);
  });

  it('describes credential forms from the protocol schema', () => {
    expect(credentialFieldsOf(providerOf('anthropic')!)).toEqual([
      { name: 'api_key', label: 'models:fields.apiKey', type: 'secret', required: true },
      { name: 'base_url', label: 'models:fields.baseUrl', type: 'text', required: false, default: 'https://api.anthropic.com/v1' },
    ]);
    expect(credentialFieldsOf(providerOf('openai_api_compatible')!)[0]).toEqual({ name: 'base_url', label: 'models:fields.baseUrl', type: 'text', required: true });
  });

  it('bounds max_tokens by the model and suggests presets within the temperature range', () => {
    const ds = providerOf('deepseek')!;
    const rules = parameterRulesOf(ds, ds.models[0]);
    expect(rules.find((r) => r.name === 'max_tokens')).toMatchObject({ max: 8192, default: 4096 });
    const anth = providerOf('anthropic')!;
    const sugg = parameterSuggestionsOf(parameterRulesOf(anth, anth.models[0]));
    expect(sugg.map((x) => x.params.temperature)).toEqual([0.2, 0.5, 0.8]);
    expect(parameterSuggestionsOf([])).toEqual([]);
  });
});

describe('ModelParams (spec 5 ranges)', () => {
  it('takes penalties in -2..2 and at most 4 stop sequences', () => {
    expect(ModelParams.safeParse({ frequency_penalty: -2, presence_penalty: 2, stop: ['a', 'b', 'c', 'd'] }).success).toBe(true);
    expect(ModelParams.safeParse({ frequency_penalty: -2.1 }).success).toBe(false);
    expect(ModelParams.safeParse({ presence_penalty: 2.5 }).success).toBe(false);
    expect(ModelParams.safeParse({ stop: ['a', 'b', 'c', 'd', 'e'] }).success).toBe(false);
    expect(ModelParams.safeParse({ response_format: 'yaml' }).success).toBe(false);
  });
});

describe('toModelError', () => {
  it('maps HTTP statuses to stable codes with the provider message', () => {
    expect(toModelError(apiError(401))).toMatchObject({ code: 'unauthorized', status: 401 });
    expect(toModelError(apiError(404)).code).toBe('model_not_found');
    expect(toModelError(apiError(429)).code).toBe('rate_limited');
    expect(toModelError(apiError(400)).message).toContain('nope');
    expect(toModelError(apiError(503, 'upstream down')).message).toContain('upstream down');
    expect(toModelError(apiError(503)).code).toBe('provider_error');
  });

  it('maps network failures, timeouts, stops and retry wrappers', () => {
    const refused = Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }) });
    expect(toModelError(refused).code).toBe('unreachable');
    expect(toModelError(new DOMException('t', 'TimeoutError')).code).toBe('timeout');
    expect(toModelError(new DOMException('a', 'AbortError')).code).toBe('cancelled');
    expect(toModelError({ name: 'AI_RetryError', lastError: apiError(429) }).code).toBe('rate_limited');
    expect(toModelError(new Error('weird')).code).toBe('provider_error');
  });
});

describe('toModelMessages', () => {
  it('maps tool calls, tool results and images to the SDK shape', () => {
    const out = toModelMessages([
      { role: 'user', content: 'look', images: ['https://example.com/a.png'] },
      { role: 'assistant', content: '', tool_calls: [{ id: 'c1', name: 'f', arguments: { x: 1 } }] },
      { role: 'tool', tool_call_id: 'c1', name: 'f', content: 'ok' },
    ]);
    expect(out[0]).toMatchObject({ role: 'user', content: [{ type: 'text', text: 'look' }, { type: 'image' }] });
    expect(out[1]).toEqual({ role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'f', input: { x: 1 } }] });
    expect(out[2]).toEqual({ role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'f', output: { type: 'text', value: 'ok' } }] });
  });
});
