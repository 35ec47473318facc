import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { tenants, userIdentities, users } from '../db/schema';
import { createUser, findUserByName } from '../services/users';
import { generatePassword } from '../security/passwords';
import { forgetCallers } from '../auth';
import { AppError } from '../errors';
import { ErrorCode } from '../../../schemas/errors';
import type { Settings } from '../settings';
import { UUID_RE } from '../context';
import { ssoFailed } from './oidc';
import { isUniqueViolation } from '../db/pg-errors';

type Claims = Record<string, unknown>;
type UserRow = typeof users.$inferSelect;

const str = (v: unknown, max: number) => (typeof v === 'string' && v.trim() !== '' ? v.trim().slice(0, max) : undefined);

/** The claim's value by name; a dotted name reads into objects (Keycloak's `realm_access.roles`). */
function claim(claims: Claims, name: string): unknown {
  if (name in claims) return claims[name];
  return name.split('.').reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Claims)[k] : undefined), claims);
}

/** The system role a provider may give: tenant_admin or user. A super admin is never made by a token. */
function roleOf(v: unknown): 'tenant_admin' | 'user' {
  const values = Array.isArray(v) ? v : [v];
  return values.includes('tenant_admin') ? 'tenant_admin' : 'user';
}

/**
 * The Weft user of a provider's account, created on the first sign-in from the token's claims
 * (username: preferred_username, else email, else sub; email; name) in the tenant the tenant claim
 * names (its id or name). Later sign-ins match by the (issuer, subject) link, never by name again,
 * and bring the email, name and role up to date. An existing local user of the same name is linked
 * on the first sign-in (the provider is the operator's directory), except a super admin: the
 * break-glass account stays local. Refusals change nothing.
 */
export async function accountFromClaims(db: Db, settings: Settings, issuer: string, claims: Claims): Promise<UserRow> {
  // Two first sign-ins of one new account at once (two tabs, a double click) both find no user and
  // both insert: the loser trips the (tenant, username) or (issuer, subject) unique index. Matching
  // again then finds the winner's rows, so the loser signs in to the same user instead of a 500.
  for (let attempt = 1; ; attempt++) {
    try {
      return await matchOrCreate(db, settings, issuer, claims);
    } catch (e) {
      if (attempt >= 3 || !isUniqueViolation(e)) throw e;
    }
  }
}

async function matchOrCreate(db: Db, settings: Settings, issuer: string, claims: Claims): Promise<UserRow> {
  const subject = str(claims.sub, 255);
  if (!subject) throw ssoFailed('the id token has no subject');
  const tenantRef = str(claim(claims, settings.oidcTenantClaim), 200);
  const [tenant] = tenantRef
    ? await db
        .select()
        .from(tenants)
        .where(UUID_RE.test(tenantRef) ? eq(tenants.id, tenantRef) : sql`lower(${tenants.name}) = lower(${tenantRef})`)
    : [];
  if (!tenant || tenant.status !== 1) {
    throw new AppError(403, ErrorCode.SSO_NO_TENANT, `Social login failure: the token's ${settings.oidcTenantClaim} claim names no enabled tenant`);
  }
  const role = roleOf(claim(claims, settings.oidcRoleClaim));
  const email = str(claims.email, 200) ?? '';
  const name = str(claims.name, 64) ?? '';
  const [linked] = await db
    .select({ user: users })
    .from(userIdentities)
    .innerJoin(users, eq(users.id, userIdentities.userId))
    .where(and(eq(userIdentities.issuer, issuer), eq(userIdentities.subject, subject)));
  if (linked) {
    if (linked.user.tenantId !== tenant.id) throw new AppError(403, ErrorCode.SSO_NO_TENANT, 'Social login failure: the account belongs to another tenant');
    return refresh(db, linked.user, { role, email, name });
  }
  const username = (str(claims.preferred_username, 64) ?? str(claims.email, 64) ?? subject.slice(0, 64)).replace(/\s+/g, '_');
  const existing = await findUserByName(db, tenant.id, username);
  if (existing) {
    if (existing.role === 'super_admin') throw ssoFailed('a super admin signs in with account and password');
    const [other] = await db.select({ issuer: userIdentities.issuer, subject: userIdentities.subject }).from(userIdentities).where(eq(userIdentities.userId, existing.id));
    // This very account, linked by a simultaneous first sign-in between the lookup above and this one.
    if (other?.issuer === issuer && other.subject === subject) return refresh(db, existing, { role, email, name });
    if (other) throw ssoFailed('the user name is linked to another account of the provider');
    await db.insert(userIdentities).values({ id: randomUUID(), userId: existing.id, issuer, subject });
    return refresh(db, existing, { role, email, name });
  }
  // The password is random and never told: such a user signs in through the provider only.
  const created = await createUser(db, { tenantId: tenant.id, username, password: generatePassword(32), role, email, nickname: name, realName: name || username });
  await db.insert(userIdentities).values({ id: randomUUID(), userId: created.id, issuer, subject });
  return created;
}

async function refresh(db: Db, u: UserRow, next: { role: 'tenant_admin' | 'user'; email: string; name: string }): Promise<UserRow> {
  const role = u.role === 'super_admin' ? u.role : next.role;
  const [row] = await db
    .update(users)
    .set({ role, email: next.email || u.email, realName: next.name || u.realName, updatedAt: new Date() })
    .where(eq(users.id, u.id))
    .returning();
  if (role !== u.role) forgetCallers();
  return row;
}
