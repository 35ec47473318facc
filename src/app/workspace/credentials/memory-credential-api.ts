/**
 * An in-memory {@link CredentialApi} for stories and tests: the server's rules (owner and admin
 * change and reveal; SK masked in answers; a masked SK on update keeps the stored one) and its
 * failures as ApiErrors.
 */
import { maskSecret, type Credential } from '../../../../schemas/credential';
import type { MemberRole, Workspace } from '../../../../schemas/workspace';
import { ApiError } from '../../../api/request';
import type { CredentialApi } from './credential-api';

export interface MemoryCredentialOptions {
  role?: MemberRole;
  /** Stored credentials with their plain SK. */
  seed?: (Omit<Credential, 'workspace_id' | 'created_by' | 'created_at' | 'updated_at' | 'id'> & { id?: string })[];
  latencyMs?: number;
  listFails?: boolean;
  neverLoads?: boolean;
}

export interface MemoryCredentialApi extends CredentialApi {
  workspaceId: string;
  /** Rows with their plain SK. */
  stored: Credential[];
  calls: { method: string; args: unknown[] }[];
}

const WS = '0c000000-0000-4000-8000-0000000000c1';
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
const denied = () => new ApiError({ status: 403, code: 'PERMISSION-1000', msg: 'Permission denied' });

export function createMemoryCredentialApi(opts: MemoryCredentialOptions = {}): MemoryCredentialApi {
  const role = opts.role ?? 'owner';
  const calls: MemoryCredentialApi['calls'] = [];
  let n = 0;
  const now = () => new Date(Date.parse('2025-05-01T08:00:00Z') + n * 3_600_000).toISOString();
  const newId = () => `0e000000-0000-4000-8000-${(++n).toString(16).padStart(12, '0')}`;
  const stored: Credential[] = (opts.seed ?? []).map((c) => ({
    workspace_id: WS,
    created_by: WS,
    created_at: now(),
    updated_at: now(),
    ...c,
    id: c.id ?? newId(),
  }));
  const canChange = role === 'owner' || role === 'admin';
  const masked = (c: Credential): Credential => ({ ...c, sk: maskSecret(c.sk) });
  const step = async (method: string, args: unknown[]) => {
    calls.push({ method, args });
    await wait(opts.latencyMs ?? 0);
  };
  const find = (id: string) => {
    const c = stored.find((x) => x.id === id);
    if (!c) throw new ApiError({ status: 400, code: 'VALIDATION-1000', msg: 'Parameter error' });
    return c;
  };
  const api: MemoryCredentialApi = {
    workspaceId: WS,
    stored,
    calls,
    async getWorkspace(id) {
      await step('getWorkspace', [id]);
      return { id, name: 'Demo space', description: '', icon: null, role_type: role, created_at: now(), updated_at: now() } as unknown as Workspace;
    },
    async list(_ws, q) {
      await step('list', [q]);
      if (opts.neverLoads) return new Promise(() => {});
      if (opts.listFails) throw new ApiError({ status: 500, code: 'SYSTEM-1000', msg: 'Server error' });
      const name = (q.name ?? '').toLowerCase();
      const rows = stored.filter((c) => c.identifier.toLowerCase().includes(name)).reverse();
      const size = Number(q.page_size ?? 20);
      const page = Number(q.page ?? 1);
      return { items: rows.slice((page - 1) * size, page * size).map(masked), total: rows.length };
    },
    async create(_ws, body) {
      await step('create', [body]);
      if (!canChange) throw denied();
      const c: Credential = {
        id: newId(),
        workspace_id: WS,
        identifier: body.identifier.trim(),
        ak: body.ak ?? '',
        sk: body.sk,
        cred_id: body.cred_id ?? '',
        description: body.description ?? '',
        created_by: WS,
        created_at: now(),
        updated_at: now(),
      };
      stored.push(c);
      return masked(c);
    },
    async update(_ws, body) {
      await step('update', [body]);
      if (!canChange) throw denied();
      const c = find(String(body.id));
      const { id: _id, sk, ...rest } = body;
      Object.assign(c, rest, { updated_at: now() });
      if (sk !== undefined && sk !== maskSecret(c.sk)) c.sk = sk;
      return masked(c);
    },
    async remove(_ws, id) {
      await step('remove', [id]);
      if (!canChange) throw denied();
      const i = stored.indexOf(find(id));
      stored.splice(i, 1);
      return null;
    },
    async secret(_ws, id) {
      await step('secret', [id]);
      if (!canChange) throw denied();
      return find(id).sk;
    },
  };
  return api;
}
