/**
 * An in-memory {@link ApiTabApi} for stories and tests: an app with a published version whose start
 * form has a few fields, its keys (a created key's secret is answered once, the list shows it masked),
 * the space's MCP exposure, and the server's refusals as ApiErrors.
 */
import { API_KEYS_MAX, type ApiKey, type ApiKeyCreated, type McpExposure } from '../../../../../schemas/app-api';
import { createEmptyFlow, defaultAppFeatures, type FlowDocument, type FlowMode } from '../../../../../schemas/flow';
import type { MemberRole } from '../../../../../schemas/workspace';
import { ApiError } from '../../../../api/request';
import type { ApiTabApi, PublishedDoc } from './api-tab-api';

export interface MemoryApiTabOptions {
  mode?: FlowMode;
  role?: MemberRole;
  /** How many keys exist at first (default 2). */
  keys?: number;
  /** The app has no published version. */
  unpublished?: boolean;
  /** The start form's fields (default: a text, a select with a quote in an option, a number, a file). */
  fields?: Record<string, unknown>[];
  latencyMs?: number;
  listFails?: boolean;
  /** The space offers this app over MCP. */
  mcpExposed?: boolean;
}

export interface MemoryApiTabApi extends ApiTabApi {
  appId: string;
  workspaceId: string;
  keys: ApiKey[];
  spaceKeys: ApiKey[];
  /** Every secret ever answered (for assertions that the page does not keep them). */
  secrets: string[];
  calls: { method: string; args: unknown[] }[];
}

export const MEMORY_APP_ID = '0a000000-0000-4000-8000-0000000000a5';
const WS = '0c000000-0000-4000-8000-0000000000c5';
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
const uuid = (n: number) => `0e000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

export const DEFAULT_FIELDS: Record<string, unknown>[] = [
  { name: 'topic', label: 'Topic', type: 'text', required: true, options: [], allowed_extensions: [] },
  { name: 'tone', label: 'Tone', type: 'select', required: false, options: ["it's formal", 'casual'], allowed_extensions: [] },
  { name: 'max_words', label: 'Max words', type: 'number', required: false, options: [], allowed_extensions: [] },
  { name: 'brief', label: 'Brief', type: 'file', required: false, options: [], allowed_extensions: ['.pdf'] },
];

/** A published document of the mode whose start node carries `fields` (and a workflow's end two outputs). */
export function documentWith(mode: FlowMode, fields: Record<string, unknown>[]): FlowDocument {
  const doc = createEmptyFlow(mode);
  const nodes = doc.nodes.map((n) => {
    if (n.kind === 'start') return { ...n, config: { ...n.config, variables: fields } };
    if (n.kind === 'end') return { ...n, config: { ...n.config, outputs: [{ name: 'summary', selector: [] }, { name: 'score', selector: [] }] } };
    return n;
  });
  return { ...doc, nodes, features: mode === 'workflow' ? undefined : { ...defaultAppFeatures(), opening_statement: 'Hi! Ask me about your order.', suggested_questions: ['Where is my parcel?'] } };
}

const mask = (secret: string) => `${secret.slice(0, 7)}…${secret.slice(-4)}`;

export function createMemoryApiTabApi(opts: MemoryApiTabOptions = {}): MemoryApiTabApi {
  const mode = opts.mode ?? 'chatflow';
  const calls: MemoryApiTabApi['calls'] = [];
  const latency = () => wait(opts.latencyMs ?? 0);
  let n = 0;
  const base = Date.parse('2026-06-01T09:00:00Z');
  const keys: ApiKey[] = Array.from({ length: opts.keys ?? 2 }, (_, i) => ({
    id: uuid(++n),
    name: i === 0 ? 'Production' : `Staging ${i}`,
    masked: `wk-ab${i}d…x${i}yz`,
    created_by_name: 'Ada Admin',
    created_at: new Date(base + i * 86_400_000).toISOString(),
    last_used_at: i === 0 ? new Date(base + 5 * 86_400_000).toISOString() : null,
    rate_limit_per_minute: i === 0 ? 600 : null,
  })).reverse();
  const published: PublishedDoc | null = opts.unpublished ? null : { version: 'v1.0.2', document: documentWith(mode, opts.fields ?? DEFAULT_FIELDS) };
  let mcp: McpExposure = { enabled: !!opts.mcpExposed, app_ids: opts.mcpExposed ? [MEMORY_APP_ID] : [], endpoint: `/v1/mcp/${WS}` };
  const manager = () => (opts.role ?? 'owner') !== 'ordinary_member';
  const owner = () => (opts.role ?? 'owner') === 'owner';
  const spaceKeys: ApiKey[] = [];
  /** The server's key calls over one list (an app's keys, or the space's MCP keys). */
  const keyOps = {
    async list(method: string, args: unknown[], list: ApiKey[]) {
      calls.push({ method, args });
      await latency();
      if (opts.listFails) throw new ApiError({ status: 500, code: 'SYSTEM-1500', msg: 'The server failed' });
      return list.map((k) => ({ ...k }));
    },
    async create(method: string, args: unknown[], list: ApiKey[], body: { name: string; rate_limit_per_minute: number | null }, allowed: boolean): Promise<ApiKeyCreated> {
      calls.push({ method, args });
      await latency();
      if (!allowed) throw new ApiError({ status: 403, code: 'PERMISSION-1000', msg: 'Your role cannot manage these keys' });
      if (list.length >= API_KEYS_MAX) throw new ApiError({ status: 400, code: 'VALIDATION-1000', msg: `At most ${API_KEYS_MAX} keys` });
      const secret = `wk-${'s3cr3tK3y'.repeat(5).slice(0, 36)}${(++n).toString().padStart(4, '0')}`;
      api.secrets.push(secret);
      const key: ApiKey = { id: uuid(n), name: body.name.trim(), masked: mask(secret), created_by_name: 'Ada Admin', created_at: new Date().toISOString(), last_used_at: null, rate_limit_per_minute: body.rate_limit_per_minute };
      list.unshift(key);
      return { ...key, secret };
    },
    async revoke(method: string, args: unknown[], list: ApiKey[], keyId: string, allowed: boolean) {
      calls.push({ method, args });
      await latency();
      if (!allowed) throw new ApiError({ status: 403, code: 'PERMISSION-1000', msg: 'Your role cannot manage these keys' });
      const i = list.findIndex((k) => k.id === keyId);
      if (i < 0) throw new ApiError({ status: 400, code: 'VALIDATION-1000', msg: 'No such key' });
      list.splice(i, 1);
      return null;
    },
  };
  const api: MemoryApiTabApi = {
    appId: MEMORY_APP_ID,
    workspaceId: WS,
    keys,
    spaceKeys,
    secrets: [],
    calls,
    listKeys: (...args) => keyOps.list('listKeys', args, keys),
    createKey: (...args) => keyOps.create('createKey', args, keys, args[2], manager()),
    revokeKey: (...args) => keyOps.revoke('revokeKey', args, keys, args[2], manager()),
    listSpaceKeys: (...args) => keyOps.list('listSpaceKeys', args, spaceKeys),
    createSpaceKey: (...args) => keyOps.create('createSpaceKey', args, spaceKeys, args[1], owner()),
    revokeSpaceKey: (...args) => keyOps.revoke('revokeSpaceKey', args, spaceKeys, args[1], owner()),
    async published(...args) {
      calls.push({ method: 'published', args });
      await latency();
      return published;
    },
    async mcp(...args): Promise<McpExposure | null> {
      calls.push({ method: 'mcp', args });
      await latency();
      return { ...mcp, app_ids: [...mcp.app_ids] };
    },
    async setMcp(...args) {
      calls.push({ method: 'setMcp', args });
      await latency();
      if ((opts.role ?? 'owner') !== 'owner') throw new ApiError({ status: 403, code: 'PERMISSION-1000', msg: 'Only the owner chooses' });
      mcp = { ...mcp, ...args[1] };
      return { ...mcp, app_ids: [...mcp.app_ids] };
    },
    async role(...args) {
      calls.push({ method: 'role', args });
      await latency();
      return opts.role ?? 'owner';
    },
  };
  return api;
}
