/**
 * An in-memory {@link DatabaseApi} for stories and tests: owner and admin change and reveal, the
 * password answers masked, a new database is 'detecting' until its first check, and the check
 * "connects" when the password is `secret` (anything else fails with auth_failed).
 */
import { SECRET_MASK } from '../../../../schemas/credential';
import { DEFAULT_PORTS, type CheckResult, type Database } from '../../../../schemas/database';
import type { MemberRole, Workspace } from '../../../../schemas/workspace';
import { ApiError } from '../../../api/request';
import type { DatabaseApi } from './database-api';

export interface MemoryDatabaseOptions {
  role?: MemberRole;
  seed?: Partial<Database>[];
  latencyMs?: number;
  listFails?: boolean;
  /** The password the fake server accepts. Default 'secret'. */
  goodPassword?: string;
}

export interface MemoryDatabaseApi extends DatabaseApi {
  workspaceId: string;
  stored: Database[];
  calls: { method: string; args: unknown[] }[];
}

const WS = '0c000000-0000-4000-8000-0000000000d1';
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
const denied = () => new ApiError({ status: 403, code: 'PERMISSION-1000', msg: 'Permission denied' });

export function createMemoryDatabaseApi(opts: MemoryDatabaseOptions = {}): MemoryDatabaseApi {
  const role = opts.role ?? 'owner';
  const good = opts.goodPassword ?? 'secret';
  const calls: MemoryDatabaseApi['calls'] = [];
  let n = 0;
  const now = () => new Date(Date.parse('2025-05-01T08:00:00Z') + n * 3_600_000).toISOString();
  const newId = () => `0f000000-0000-4000-8000-${(++n).toString(16).padStart(12, '0')}`;
  const base = (p: Partial<Database>): Database => ({
    id: newId(),
    workspace_id: WS,
    name: 'db',
    type: 'postgresql',
    host: 'localhost',
    port: 5432,
    account: 'weft',
    password: good,
    database: 'weft',
    sid: '',
    remark: '',
    query_limit: 100,
    status: 'success',
    status_code: 'ok',
    status_message: 'Connected',
    checked_at: now(),
    created_by: WS,
    created_at: now(),
    updated_at: now(),
    ...p,
  });
  const stored: Database[] = (opts.seed ?? []).map(base);
  const canChange = role === 'owner' || role === 'admin';
  const masked = (d: Database): Database => ({ ...d, password: d.password ? SECRET_MASK : '' });
  const step = async (method: string, args: unknown[]) => {
    calls.push({ method, args });
    await wait(opts.latencyMs ?? 0);
  };
  const find = (id: string) => {
    const d = stored.find((x) => x.id === id);
    if (!d) throw new ApiError({ status: 400, code: 'VALIDATION-1000', msg: 'Parameter error' });
    return d;
  };
  const tryConnect = (password: string | undefined): CheckResult =>
    password === good
      ? { status: 'success', code: 'ok', message: 'Connected', detail: '', elapsed_ms: 12 }
      : { status: 'failed', code: 'auth_failed', message: 'Authentication failed for user "weft"', detail: 'password authentication failed', elapsed_ms: 30 };
  const api: MemoryDatabaseApi = {
    workspaceId: WS,
    stored,
    calls,
    async getWorkspace(id) {
      await step('getWorkspace', [id]);
      return { id, name: 'Demo space', description: '', icon: null, role_type: role, created_at: now(), updated_at: now() } as unknown as Workspace;
    },
    async list(_ws, q) {
      await step('list', [q]);
      if (opts.listFails) throw new ApiError({ status: 500, code: 'SYSTEM-1000', msg: 'Server error' });
      const rows = stored.filter((d) => d.name.toLowerCase().includes((q.name ?? '').toLowerCase()) && (!q.type || d.type === q.type)).reverse();
      return { items: rows.slice((q.page - 1) * q.page_size, q.page * q.page_size).map(masked), total: rows.length };
    },
    async create(_ws, body) {
      await step('create', [body]);
      if (!canChange) throw denied();
      const { id: _id, ...rest } = body;
      const d = base({ ...(rest as Partial<Database>), port: body.port ?? DEFAULT_PORTS[body.type], status: 'detecting', status_code: '', status_message: '', checked_at: null });
      stored.push(d);
      // The background check finishes a moment later.
      setTimeout(() => Object.assign(d, checked(d)), Math.max(20, (opts.latencyMs ?? 0) * 2));
      return masked(d);
    },
    async update(_ws, body) {
      await step('update', [body]);
      if (!canChange) throw denied();
      const d = find(String(body.id));
      const { id: _id, password, ...rest } = body;
      Object.assign(d, rest, { updated_at: now() });
      if (password !== undefined && password !== SECRET_MASK) d.password = password;
      return masked(d);
    },
    async remove(_ws, id) {
      await step('remove', [id]);
      if (!canChange) throw denied();
      stored.splice(stored.indexOf(find(id)), 1);
      return null;
    },
    async check(_ws, body) {
      await step('check', [body]);
      if (!canChange) throw denied();
      // As the server's outbound policy does by default: loopback is refused before any connection.
      if (['127.0.0.1', 'localhost', '::1'].includes(body.host)) throw new ApiError({ status: 400, code: 'NETWORK-1000', msg: `${body.host}:${body.port ?? ''} is not allowed by the server's network policy` });
      const pw = body.id && (body.password === undefined || body.password === SECRET_MASK) ? find(body.id).password : body.password;
      return tryConnect(pw);
    },
    async recheck(_ws, id) {
      await step('recheck', [id]);
      const d = find(id);
      Object.assign(d, checked(d));
      return masked(d);
    },
    async password(_ws, id) {
      await step('password', [id]);
      if (!canChange) throw denied();
      return find(id).password;
    },
  };
  function checked(d: Database): Partial<Database> {
    const r = tryConnect(d.password);
    return { status: r.status, status_code: r.code, status_message: r.message, checked_at: now() };
  }
  return api;
}
