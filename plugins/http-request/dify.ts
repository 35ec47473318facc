import { bool, clamp, list, num, oneOf, rec, sel, str, text, type DifyImportContext, type DifyImportHook } from '../../src/plugin-sdk/dify';
import { runSettings } from '../shared/dify';

/** Dify keeps headers and params as `key:value` lines. */
const keyValueLines = (v: unknown, ctx: DifyImportContext) =>
  str(v)
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => {
      const at = l.indexOf(':');
      return at < 0 ? { key: text(l.trim(), ctx), value: '' } : { key: text(l.slice(0, at).trim(), ctx), value: text(l.slice(at + 1).trim(), ctx) };
    });

function fromDify(data: Record<string, unknown>, ctx: DifyImportContext) {
  const body = rec(data.body);
  const items = list(body.data).map(rec);
  const first = items[0] ?? {};
  const bodyText = typeof body.data === 'string' ? body.data : first.value;
  const config: Record<string, unknown> = {
    method: str(data.method, 'get').toLowerCase(),
    url: text(data.url, ctx),
    headers: keyValueLines(data.headers, ctx),
    params: keyValueLines(data.params, ctx),
    verifySsl: bool(data.ssl_verify, true),
    ...runSettings(data),
  };
  const type = str(body.type, 'none');
  if (type === 'json') Object.assign(config, { bodyType: 'json', json: text(bodyText, ctx) });
  else if (type === 'raw-text') Object.assign(config, { bodyType: 'raw', raw: text(bodyText, ctx) });
  else if (type === 'binary') Object.assign(config, { bodyType: 'binary', binary: sel(first.file, ctx) });
  else if (type === 'form-data' || type === 'x-www-form-urlencoded') {
    const formData =
      typeof body.data === 'string'
        ? keyValueLines(body.data, ctx).map((kv) => ({ key: kv.key, type: 'text', value: kv.value, file: [] }))
        : items.map((f) => ({ key: str(f.key).slice(0, 200), type: oneOf(f.type, ['text', 'file'] as const, 'text'), value: text(f.value, ctx), file: sel(f.file, ctx) }));
    Object.assign(config, { bodyType: type, formData });
  }
  const auth = rec(data.authorization);
  const a = rec(auth.config);
  const key = text(a.api_key, ctx);
  if (auth.type === 'api-key') {
    if (a.type === 'bearer') Object.assign(config, { authType: 'bearer', token: key });
    else if (a.type === 'basic' && key.includes(':') && !key.startsWith('{{#')) {
      const at = key.indexOf(':');
      Object.assign(config, { authType: 'basic', username: key.slice(0, at), password: key.slice(at + 1) });
    } else if (a.type === 'basic') Object.assign(config, { authType: 'api-key', apiKeyIn: 'header', apiKeyName: 'Authorization', token: `Basic ${key}` });
    else Object.assign(config, { authType: 'api-key', apiKeyIn: 'header', apiKeyName: str(a.header, 'Authorization') || 'Authorization', token: key });
  }
  const t = rec(data.timeout);
  // Dify writes 0 or nothing for "the default".
  if (num(t.max_connect_timeout)) config.connectTimeoutSeconds = clamp(t.max_connect_timeout, 1, 300, 10);
  if (num(t.max_read_timeout)) config.readTimeoutSeconds = clamp(t.max_read_timeout, 1, 600, 60);
  if (num(t.max_write_timeout)) config.writeTimeoutSeconds = clamp(t.max_write_timeout, 1, 600, 20);
  return config;
}

/** Dify's HTTP request: method, URL, headers, params, body, auth and timeouts. */
export const dify: DifyImportHook = { types: ['http-request'], import: fromDify };
