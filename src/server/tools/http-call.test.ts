import { describe, expect, it } from 'vitest';
import type { ServerContext } from '../context';
import type { ToolFunction } from '../../../schemas/tool';
import { buildRequest } from './http-call';
import type { WorkspaceScope } from './rows';

/** A function without auth: buildRequest then needs neither the database nor the workspace. */
const fn = (over: Partial<ToolFunction>): ToolFunction => ({
  id: '00000000-0000-4000-8000-000000000001',
  tool_id: '00000000-0000-4000-8000-000000000002',
  name: 'f',
  description: '',
  method: 'GET',
  url: 'https://api.example.com/v1/items',
  auth: { type: 'none' },
  params: [],
  headers: [],
  body: [],
  body_subtype: 'json',
  response: [],
  enabled: true,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  ...over,
});
const ctx = {} as ServerContext;
const w = {} as WorkspaceScope;
const row = (param_key: string, extra: Record<string, unknown> = {}) => ({ param_key, data_type: 'string' as const, request_type: 'body' as const, ...extra });

describe('buildRequest: the URL body types of spec 9', () => {
  it('query_string: the body fields join the query, for GET too, and no body is sent', async () => {
    const req = await buildRequest(
      ctx,
      w,
      fn({ method: 'GET', params: [{ param_key: 'lang', data_type: 'string', request_type: 'query_params' }], body_subtype: 'query_string', body: [row('q'), row('limit', { default_value: '10' }), row('unused')] }),
      { lang: 'zh', q: 'a b&c' },
    );
    expect(req.url).toBe('https://api.example.com/v1/items');
    expect(req.query).toEqual({ lang: 'zh', q: 'a b&c', limit: '10' });
    expect(req.json ?? req.form ?? req.multipart ?? req.body).toBeUndefined();
  });

  it('path: each body field fills its {key} in the URL path, encoded, for POST too without a body', async () => {
    const req = await buildRequest(ctx, w, fn({ method: 'POST', url: 'https://api.example.com/v1/{city}/items/{id}?x=1', body_subtype: 'path', body: [row('city'), row('id')] }), { city: 'São Paulo/SP', id: 42 });
    expect(req.url).toBe('https://api.example.com/v1/S%C3%A3o%20Paulo%2FSP/items/42?x=1');
    expect(req.json ?? req.form ?? req.multipart ?? req.body).toBeUndefined();
  });

  it('path: a field without a value or without its placeholder fails the call with a code', async () => {
    await expect(buildRequest(ctx, w, fn({ url: 'https://api.example.com/{id}', body_subtype: 'path', body: [row('id')] }), {})).rejects.toMatchObject({ code: 'TOOL-INPUT-MISSING' });
    await expect(buildRequest(ctx, w, fn({ url: 'https://api.example.com/items?id={id}', body_subtype: 'path', body: [row('id')] }), { id: '1' })).rejects.toMatchObject({ code: 'TOOL-PATH-PLACEHOLDER' });
  });

  it('x-www-form-urlencoded is still a body (and GET still sends none)', async () => {
    const post = await buildRequest(ctx, w, fn({ method: 'POST', body_subtype: 'x-www-form-urlencoded', body: [row('q')] }), { q: 'x' });
    expect(post.form).toEqual({ q: 'x' });
    const get = await buildRequest(ctx, w, fn({ method: 'GET', body_subtype: 'x-www-form-urlencoded', body: [row('q')] }), { q: 'x' });
    expect(get.form).toBeUndefined();
  });
});
