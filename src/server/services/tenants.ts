import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, ilike, isNull, ne, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { orgs, tenants } from '../db/schema';
import { type Caller, UUID_RE } from '../context';
import { badRequest, exists, notFoundOrForeign } from '../errors';
import type { Tenant } from '../../../schemas/tenant';
import { createUser } from './users';
import { contains } from './orgs';
import { forgetCallers } from '../auth';
import { forgetApiKeys } from '../security/api-keys';

/**
 * Tenants (super admin only; spec 3 "Tenant", 4, 7.4). A tenant is created with its root
 * organisation (named after it) and its first tenant admin, in one transaction.
 */

type TenantRow = typeof tenants.$inferSelect;
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export function toTenant(t: TenantRow): Tenant {
  return {
    id: t.id,
    name: t.name,
    status: t.status === 1 ? 1 : 0,
    is_default: t.isDefault,
    created_at: t.createdAt.toISOString(),
    updated_at: t.updatedAt.toISOString(),
    created_by: t.createdBy,
    updated_by: t.updatedBy,
  };
}

/** The tenant, or VALIDATION-1000. */
export async function tenantOf(db: Db, tenantId: string): Promise<TenantRow> {
  if (!UUID_RE.test(tenantId)) throw notFoundOrForeign('Tenant', tenantId);
  const [row] = await db.select().from(tenants).where(eq(tenants.id, tenantId));
  if (!row) throw notFoundOrForeign('Tenant', tenantId);
  return row;
}

/**
 * The tenant an admin call works in: the caller's own unless a super admin names another (which
 * must exist). Anyone else naming another tenant gets VALIDATION-1000.
 */
export async function scopeTenant(db: Db, caller: Caller, tenantId: string | undefined) {
  if (!tenantId || tenantId === caller.tenantId) return caller.tenantId;
  if (caller.role !== 'super_admin') throw notFoundOrForeign('Tenant', tenantId);
  return (await tenantOf(db, tenantId)).id;
}

/** Serialises tenant creates and renames; refuses a name in use (case-insensitive) with VALIDATION-1001. */
async function assertNameFree(tx: Tx, name: string, exceptId?: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('tenant-name'))`);
  const conds: SQL[] = [sql`lower(${tenants.name}) = lower(${name})`];
  if (exceptId) conds.push(ne(tenants.id, exceptId));
  const [hit] = await tx.select({ id: tenants.id }).from(tenants).where(and(...conds)).limit(1);
  if (hit) throw exists(`A tenant named '${name}' already exists`);
}

/** Tenants, the default first, then oldest first. */
export async function listTenants(db: Db, q: { page: number; page_size: number; name?: string; status?: 0 | 1 }) {
  const conds: SQL[] = [];
  if (q.name) conds.push(ilike(tenants.name, contains(q.name)));
  if (q.status !== undefined) conds.push(eq(tenants.status, q.status));
  const where = conds.length ? and(...conds) : undefined;
  const [{ total }] = await db.select({ total: sql<number>`count(*)::int` }).from(tenants).where(where);
  const rows = await db
    .select()
    .from(tenants)
    .where(where)
    .orderBy(desc(tenants.isDefault), asc(tenants.createdAt), asc(tenants.id))
    .limit(q.page_size)
    .offset((q.page - 1) * q.page_size);
  return { items: rows.map(toTenant), total: Number(total), page: q.page, page_size: q.page_size };
}

export async function createTenant(db: Db, caller: Caller, input: { name: string; admin_username: string; password: string }) {
  const id = randomUUID();
  await db.transaction(async (tx) => {
    await assertNameFree(tx, input.name);
    await tx.insert(tenants).values({ id, name: input.name, createdBy: caller.username, updatedBy: caller.username });
    await tx.insert(orgs).values({ id: randomUUID(), tenantId: id, name: input.name });
    await createUser(tx, { tenantId: id, username: input.admin_username, password: input.password, role: 'tenant_admin' });
  });
  return toTenant(await tenantOf(db, id));
}

/** Renames the tenant, and its root organisation when that still carries the old name. */
export async function renameTenant(db: Db, caller: Caller, tenantId: string, name: string) {
  const t = await tenantOf(db, tenantId);
  await db.transaction(async (tx) => {
    await assertNameFree(tx, name, tenantId);
    await tx.update(tenants).set({ name, updatedBy: caller.username, updatedAt: new Date() }).where(eq(tenants.id, tenantId));
    await tx
      .update(orgs)
      .set({ name, updatedAt: new Date() })
      .where(and(eq(orgs.tenantId, tenantId), isNull(orgs.parentId), eq(orgs.name, t.name)));
  });
  return toTenant(await tenantOf(db, tenantId));
}

/**
 * Enables or disables a tenant. The default tenant and the caller's own tenant cannot be
 * disabled. A disabled tenant's users are refused at once (the auth hook and refresh check it).
 */
export async function setTenantStatus(db: Db, caller: Caller, tenantId: string, status: 0 | 1) {
  const t = await tenantOf(db, tenantId);
  if (status === 0 && t.isDefault) throw badRequest('The default tenant cannot be disabled');
  if (status === 0 && t.id === caller.tenantId) throw badRequest('You cannot disable your own tenant');
  await db.update(tenants).set({ status, updatedBy: caller.username, updatedAt: new Date() }).where(eq(tenants.id, tenantId));
  forgetCallers();
  // Its API keys stop (or work again) at once too.
  forgetApiKeys();
  return toTenant(await tenantOf(db, tenantId));
}
