/**
 * An in-memory stand-in for the server's plugin, tool and resource endpoints (src/api/plugins.ts),
 * given to the request layer as its `fetch` (configureRequest), so the System › Tools, Tools detail,
 * Resources and plugin detail stories run the pages' own calls without a server. It answers as the
 * server does: the `{code, msg, data}` envelope, secrets masked, VALIDATION-1000 with per-field
 * issues (`body/values/<field>`) for values it refuses.
 */
import type { AdminToolDetail } from '../../schemas/admin-tools';
import type { PluginCredentials } from '../../schemas/plugin-credentials';
import type { PluginDetail } from '../../schemas/plugin-package';
import type { SystemResource } from '../../schemas/system-resource';
import type { z } from 'zod';

export interface FakePluginServerOptions {
  /** Every answer waits this long (ms). Default 120. */
  delayMs?: number;
  /** Reads never answer (the loading state). */
  hang?: boolean;
  /** Reads fail with a server error (the error state). */
  fail?: boolean;
  /** The tenant has set the Signer's credentials already. */
  credentialsSet?: boolean;
  /** The plugin loaded with an error (state `failed`). */
  failedPlugin?: boolean;
}

type Values = Record<string, string | number | boolean | null>;
type Detail = z.infer<typeof PluginDetail>;

const at = (daysAgo: number, hour = 9) => new Date(Date.UTC(2026, 10, 27 - daysAgo, hour, 30)).toISOString();

const SIGNER_SCHEMA = {
  type: 'object',
  properties: {
    signature: { type: 'string', minLength: 1, maxLength: 40, titles: { zh: '签名', en: 'Signature' } },
    api_key: { type: 'string', minLength: 8, secret: true, titles: { zh: '密钥', en: 'API key' } },
    region: { type: 'string', enum: ['cn', 'eu'], titles: { zh: '区域', en: 'Region' } },
  },
  required: ['signature', 'api_key'],
};

const SIGN_PARAMETERS = { type: 'object', properties: { text: { type: 'string', minLength: 1, description: 'The text to sign' } }, required: ['text'] };

function signer(failed: boolean): Detail {
  return {
    id: 'weft.signer',
    name: 'Signer',
    version: '1.2.0',
    author: 'Weft',
    description: "Signs a text with the tenant's credentials (a plain signature and a secret key).",
    icon: 'pen-line',
    kinds: [{ kind: 'signer', version: 2 }],
    tools: [{ name: 'sign_text', description: "Signs a text with the tenant's signature" }],
    min_weft_version: '0.1.0',
    checksum: '3f9a1c0d5e7b2a4c6d8e0f1a3b5c7d9e1f2a4b6c8d0e2f4a6b8c0d2e4f6a8b0c',
    state: failed ? 'failed' : 'active',
    error: failed ? 'the server bundle defines other kinds than the manifest lists (signer)' : null,
    installed_by: 'admin',
    installed_at: at(40),
    updated_at: at(2, 14),
    usage: [
      { app_id: 'a1', app_name: 'Contract signer', kinds: ['signer'] },
      { app_id: 'a2', app_name: 'Mail footer', kinds: ['signer'] },
    ],
    history: [
      { version: '1.2.0', checksum: '3f9a1c0d', action: 'upgrade', by: 'admin', at: at(2, 14) },
      { version: '1.1.0', checksum: '9b1d2c3e', action: 'upgrade', by: 'ops.li', at: at(15, 11) },
      { version: '1.0.0', checksum: '0a1b2c3d', action: 'install', by: 'admin', at: at(40) },
    ],
    credentials_schema: SIGNER_SCHEMA,
  };
}

const BUILTINS: AdminToolDetail[] = [
  { name: 'current_time', description: 'The current date and time in a time zone', parameters: { type: 'object', properties: { timezone: { type: 'string' } } } },
  { name: 'calculator', description: 'Evaluates an arithmetic expression', parameters: { type: 'object', properties: { expression: { type: 'string' } }, required: ['expression'] } },
  { name: 'webpage_reader', description: 'Fetches a web page and returns its readable text', parameters: { type: 'object', properties: { url: { type: 'string' } }, required: ['url'] } },
].map((t) => ({ ...t, id: `builtin/${t.name}`, provider: 'builtin', source: 'builtin', plugin: null, needs_credentials: false, credentials_set: false, credentials_schema: null }));

const RESOURCE: SystemResource = {
  database: { kind: 'embedded', size_bytes: 182_452_224 },
  files: { count: 1_284, size_bytes: 3_221_225_472 },
  knowledge_queue: { queued: 12, running: 2, failed: 1, busy_workers: 2 },
  sandbox: { running: 1, waiting: 0, workers: 4 },
  model_providers: [
    { provider: 'openai', tenants: 3 },
    { provider: 'tongyi', tenants: 1 },
  ],
  plugins: { installed: 2, active: 1, failed: 1 },
  process: {
    uptime_seconds: 273_784,
    rss_bytes: 612_368_384,
    heap_used_bytes: 201_326_592,
    heap_total_bytes: 268_435_456,
    node_version: 'v20.20.2',
    cpus: 8,
    load_average: [0.42, 0.61, 0.55],
    system_memory_bytes: 17_179_869_184,
    system_free_bytes: 6_442_450_944,
  },
  checked_at: at(0, 10),
};

const mask = (v: string) => (v.length > 8 ? `${v.slice(0, 4)}****${v.slice(-4)}` : '******');

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const ok = (data: unknown) => json(200, { code: 0, msg: 'success', data });
const fail = (status: number, code: string, msg: string, data: unknown = null) => json(status, { code, msg, data });

/** A `fetch` that answers the plugin, tool and resource calls. */
export function createFakePluginServer(options: FakePluginServerOptions = {}): typeof fetch {
  const delay = options.delayMs ?? 120;
  const plugin = signer(!!options.failedPlugin);
  let stored: { values: Values; by: string; at: string } | null = options.credentialsSet ? { values: { signature: 'ACME Ltd', api_key: 'sk-acme-0123456789', region: 'cn' }, by: 'alice', at: at(1, 16) } : null;

  const view = (): PluginCredentials | null =>
    stored && {
      plugin_id: plugin.id,
      values: Object.fromEntries(Object.entries(stored.values).map(([k, v]) => [k, k === 'api_key' && typeof v === 'string' ? mask(v) : v])),
      secret_fields: ['api_key'],
      updated_by: stored.by,
      created_at: stored.at,
      updated_at: stored.at,
    };
  const signTool = (): AdminToolDetail => ({
    id: 'weft.signer/sign_text',
    provider: plugin.id,
    name: 'sign_text',
    description: plugin.tools[0].description,
    source: 'plugin',
    plugin: { id: plugin.id, name: plugin.name, version: plugin.version, state: plugin.state },
    needs_credentials: true,
    credentials_set: !!stored,
    parameters: SIGN_PARAMETERS,
    credentials_schema: SIGNER_SCHEMA,
  });

  /** The server's check of the values, stricter than the form's (the key must have 12 characters). */
  function save(body: { values?: Values }): Response {
    const values = { ...(body.values ?? {}) };
    if (stored && values.api_key === mask(String(stored.values.api_key))) values.api_key = stored.values.api_key;
    const issues: Record<string, unknown>[] = [];
    if (String(values.api_key ?? '').length < 12) issues.push({ path: 'body/values/api_key', message: 'Too small: expected string to have >=12 characters', rule: 'too_small', origin: 'string', limit: 12 });
    if (/[<>]/.test(String(values.signature ?? ''))) issues.push({ path: 'body/values/signature', message: 'A signature may not hold markup' });
    if (issues.length) return fail(400, 'VALIDATION-1000', 'Invalid credentials', issues);
    stored = { values, by: 'admin', at: new Date().toISOString() };
    return ok(view());
  }

  function answer(method: string, url: URL, body: unknown): Response {
    const path = url.pathname;
    const read = method === 'GET';
    if (read && options.fail) return fail(500, 'SYSTEM-1500', 'Server error');
    if (path === '/api/v1/admin/system/resource') return ok({ ...RESOURCE, checked_at: new Date().toISOString() });
    if (path === '/api/v1/admin/tools') return ok([...BUILTINS, signTool()].map(({ parameters: _p, credentials_schema: _c, ...t }) => t));
    const toolId = url.searchParams.get('tool_id') ?? '';
    const tool = [...BUILTINS, signTool()].find((t) => t.id === toolId);
    if (path.startsWith('/api/v1/admin/tools/') && !tool) return fail(400, 'VALIDATION-1000', 'Tool does not exist or you have no permission', { id: toolId });
    if (path === '/api/v1/admin/tools/detail') return ok(tool);
    const pluginCreds = path === `/api/v1/console/plugins/${plugin.id}/credentials`;
    if (path === '/api/v1/admin/tools/credentials' || pluginCreds) {
      if (tool && !tool.needs_credentials) return read ? ok(null) : fail(400, 'PLUGIN-CREDENTIALS-NONE', 'The tool takes no credentials');
      if (read) return ok(view());
      if (method === 'DELETE') {
        if (!stored) return fail(400, 'VALIDATION-1000', 'Plugin credentials does not exist or you have no permission');
        stored = null;
        return ok(null);
      }
      return save(body as { values?: Values });
    }
    if (path === `/api/v1/admin/plugins/${plugin.id}`) return ok(plugin);
    return fail(400, 'VALIDATION-1000', `${method} ${path} is not in this story`);
  }

  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input), 'http://story.local');
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    if (method === 'GET' && options.hang) return new Promise<Response>(() => {});
    await new Promise((r) => setTimeout(r, delay));
    const text = typeof init?.body === 'string' ? init.body : '';
    return answer(method, url, text ? JSON.parse(text) : null);
  };
}
