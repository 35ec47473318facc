import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { orgUsers, orgs, tenants, users } from '../db/schema';
import { hashPassword } from '../security/passwords';
import type { SystemRole } from '../../../schemas/auth';

export type UserRow = typeof users.$inferSelect;

/** The user as the API shows it (never the hash). */
export function toUser(u: UserRow) {
  return {
    id: u.id,
    tenant_id: u.tenantId,
    username: u.username,
    nickname: u.nickname,
    realName: u.realName,
    email: u.email,
    phone: u.phone,
    avatar: u.avatar,
    serial_number: u.serialNumber,
    role: u.role,
    status: (u.status === 1 ? 1 : 0) as 0 | 1,
    created_at: u.createdAt.toISOString(),
    updated_at: u.updatedAt.toISOString(),
  };
}

export async function findUserByName(db: Db, tenantId: string, username: string) {
  const rows = await db
    .select()
    .from(users)
    .where(and(eq(users.tenantId, tenantId), sql`lower(${users.username}) = lower(${username})`));
  return rows[0] ?? null;
}

/** Next employee serial number in a tenant: E000001, E000002… */
async function nextSerial(db: Db, tenantId: string) {
  const [{ n }] = await db.select({ n: sql<number>`count(*)::int` }).from(users).where(eq(users.tenantId, tenantId));
  return `E${String(Number(n) + 1).padStart(6, '0')}`;
}

export interface NewUser {
  tenantId: string;
  username: string;
  password: string;
  role: SystemRole;
  nickname?: string;
  realName?: string;
  email?: string;
  phone?: string;
  /** Organisations; the first is the master. Empty puts the user in the tenant's root organisation. */
  orgIds?: string[];
}

export async function createUser(db: Db, input: NewUser): Promise<UserRow> {
  const id = randomUUID();
  const passwordHash = await hashPassword(input.password);
  const serialNumber = await nextSerial(db, input.tenantId);
  const [row] = await db
    .insert(users)
    .values({
      id,
      tenantId: input.tenantId,
      username: input.username,
      passwordHash,
      role: input.role,
      nickname: input.nickname ?? '',
      realName: input.realName || input.username,
      email: input.email ?? '',
      phone: input.phone ?? '',
      serialNumber,
    })
    .returning();
  await setUserOrgs(db, input.tenantId, id, input.orgIds ?? []);
  return row;
}

/** Replaces a user's organisations; with none given, the tenant's root organisation. */
export async function setUserOrgs(db: Db, tenantId: string, userId: string, orgIds: string[]) {
  let ids = orgIds;
  if (ids.length === 0) {
    const root = await rootOrg(db, tenantId);
    ids = [root.id];
  }
  await db.delete(orgUsers).where(eq(orgUsers.userId, userId));
  await db.insert(orgUsers).values(ids.map((orgId, i) => ({ orgId, userId, isMaster: i === 0 })));
}

/** The tenant's root organisation (named after the tenant), created on demand. */
export async function rootOrg(db: Db, tenantId: string) {
  const found = await db
    .select()
    .from(orgs)
    .where(and(eq(orgs.tenantId, tenantId), sql`${orgs.parentId} is null`))
    .orderBy(orgs.createdAt)
    .limit(1);
  if (found[0]) return found[0];
  const [t] = await db.select().from(tenants).where(eq(tenants.id, tenantId));
  const [row] = await db.insert(orgs).values({ id: randomUUID(), tenantId, name: t?.name ?? 'Organisation' }).returning();
  return row;
}

export async function tenantName(db: Db, tenantId: string) {
  const [t] = await db.select({ name: tenants.name }).from(tenants).where(eq(tenants.id, tenantId));
  return t?.name ?? '';
}
