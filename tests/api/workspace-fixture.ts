import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { createUser } from '../../src/server/services/users';
import { tenants } from '../../src/server/db/schema';
import { DEFAULT_TENANT_ID, type Harness, type Reply } from './harness';

/**
 * People and project spaces for the workspace-scoped resource tests (credentials, databases,
 * prompts): workspace A (owner, admin, ordinary member), workspace B (same owner), workspace C of
 * an outsider, and a user of another tenant.
 */

export const PASSWORD = 'Passw0rd123';
export const MISSING = '7d0c6b1e-0000-4000-8000-000000000000';

export type Who = 'owner' | 'admin' | 'member' | 'outsider' | 'foreign';

export interface Fixture {
  u: Record<Who, { id: string; token: string }>;
  wsA: string;
  wsB: string;
  wsC: string;
}

export async function setUpWorkspaces(h: Harness, prefix: string): Promise<Fixture> {
  const u = {} as Fixture['u'];
  const tenantB = randomUUID();
  await h.studio.ctx.db.insert(tenants).values({ id: tenantB, name: `${prefix} tenant B` });
  const user = async (key: Who, tenantId = DEFAULT_TENANT_ID) => {
    const username = `${prefix}_${key}`;
    const row = await createUser(h.studio.ctx.db, { tenantId, username, password: PASSWORD, role: 'user' });
    u[key] = { id: row.id, token: await h.login(username, PASSWORD, tenantId) };
  };
  await user('owner');
  await user('admin');
  await user('member');
  await user('outsider');
  await user('foreign', tenantB);

  const workspace = async (token: string, name: string) => {
    const r = await h.call('POST', '/api/v1/console/workspaces', { token, body: { name } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.data.id as string;
  };
  const wsA = await workspace(u.owner.token, `${prefix} A`);
  const wsB = await workspace(u.owner.token, `${prefix} B`);
  const wsC = await workspace(u.outsider.token, `${prefix} C`);
  for (const [who, role] of [
    ['admin', 'admin'],
    ['member', 'ordinary_member'],
  ] as const) {
    const r = await h.call('POST', `/api/v1/console/workspaces/${wsA}/members`, { token: u.owner.token, body: { user_ids: [u[who].id], role } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  }
  // The foreign user has a workspace of their own, in their tenant.
  await workspace(u.foreign.token, `${prefix} D`);
  return { u, wsA, wsB, wsC };
}

export function expectCode(r: Reply, status: number, code: string) {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(r.body.code).toBe(code);
}

export function expectOk(r: Reply) {
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(r.body.code).toBe(0);
  return r.body.data;
}
