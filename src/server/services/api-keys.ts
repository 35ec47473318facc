import { randomUUID } from 'node:crypto';
import { and, count, desc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { API_KEYS_MAX, type ApiKey, type ApiKeyCreateBody, type ApiKeyCreated } from '../../../schemas/app-api';
import type { MemberRole } from '../../../schemas/workspace';
import { requireMembership, UUID_RE, type Caller, type ServerContext } from '../context';
import { apiKeys, apps, users } from '../db/schema';
import { badRequest, notFoundOrForeign } from '../errors';
import { forgetApiKeys, maskedKey, newSecret } from '../security/api-keys';
import { MANAGERS } from './workspace-resources';

/**
 * Keys of the public API (schemas/app-api.ts), managed in the console. An app's keys: every member of
 * its project space lists them (masked), owner and admin create and revoke. A project space's keys
 * (its MCP endpoint, `app_id` null): every member lists, the owner creates and revokes. The secret
 * is answered once, by the create; revoking keeps the row and stops the key at once in this process
 * (within seconds in others: security/api-keys.ts).
 */

/** Whose keys: one app's, or the space's own (MCP). */
export interface KeyOwner {
  tenantId: string;
  workspaceId: string;
  appId: string | null;
}

const OWNER_ONLY = ['owner'] as const;

const creatorName = sql<string>`coalesce(nullif(${users.realName}, ''), ${users.username}, '')`;
const ownerWhere = (o: KeyOwner): SQL =>
  and(eq(apiKeys.workspaceId, o.workspaceId), eq(apiKeys.tenantId, o.tenantId), o.appId ? eq(apiKeys.appId, o.appId) : isNull(apiKeys.appId))!;

type KeyRow = typeof apiKeys.$inferSelect;
function toApiKey(r: KeyRow, name: string | null): ApiKey {
  return {
    id: r.id,
    name: r.name,
    masked: maskedKey(r.prefix, r.last4),
    created_by_name: name ?? '',
    created_at: r.createdAt.toISOString(),
    last_used_at: r.lastUsedAt ? r.lastUsedAt.toISOString() : null,
    rate_limit_per_minute: r.rateLimitPerMinute,
  };
}

/** The app in the caller's space (any member; `roles` to require more), or VALIDATION-1000. */
export async function appKeyOwner(ctx: ServerContext, caller: Caller, workspaceId: string, appId: string, roles?: readonly MemberRole[]): Promise<KeyOwner> {
  await requireMembership(ctx.db, caller, workspaceId, roles);
  if (!UUID_RE.test(appId)) throw notFoundOrForeign('App', appId);
  const [app] = await ctx.db
    .select({ id: apps.id })
    .from(apps)
    .where(and(eq(apps.id, appId), eq(apps.workspaceId, workspaceId), eq(apps.tenantId, caller.tenantId)));
  if (!app) throw notFoundOrForeign('App', appId);
  return { tenantId: caller.tenantId, workspaceId, appId };
}

/** The space itself (any member; `roles` to require more), or VALIDATION-1000. */
export async function spaceKeyOwner(ctx: ServerContext, caller: Caller, workspaceId: string, roles?: readonly MemberRole[]): Promise<KeyOwner> {
  await requireMembership(ctx.db, caller, workspaceId, roles);
  return { tenantId: caller.tenantId, workspaceId, appId: null };
}

/** Live keys, newest first. */
export async function listKeys(ctx: ServerContext, owner: KeyOwner): Promise<ApiKey[]> {
  const rows = await ctx.db
    .select({ key: apiKeys, name: creatorName })
    .from(apiKeys)
    .leftJoin(users, eq(users.id, apiKeys.createdBy))
    .where(and(ownerWhere(owner), isNull(apiKeys.revokedAt)))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
  return rows.map((r) => toApiKey(r.key, r.name));
}

/** A new key; its secret is in this answer only. At most API_KEYS_MAX live keys each. */
export async function createKey(ctx: ServerContext, caller: Caller, owner: KeyOwner, body: ApiKeyCreateBody): Promise<ApiKeyCreated> {
  return ctx.db.transaction(async (tx) => {
    // Serialise creates of one owner so the count below holds.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`api-keys:${owner.appId ?? owner.workspaceId}`}))`);
    const [{ n }] = await tx.select({ n: count() }).from(apiKeys).where(and(ownerWhere(owner), isNull(apiKeys.revokedAt)));
    if (Number(n) >= API_KEYS_MAX) {
      throw badRequest(`At most ${API_KEYS_MAX} keys: revoke one you no longer use first`, [{ path: 'body', message: `at most ${API_KEYS_MAX} live keys` }]);
    }
    const s = newSecret();
    const [row] = await tx
      .insert(apiKeys)
      .values({
        id: randomUUID(),
        tenantId: owner.tenantId,
        workspaceId: owner.workspaceId,
        appId: owner.appId,
        name: body.name,
        prefix: s.prefix,
        secretHash: s.secretHash,
        last4: s.last4,
        rateLimitPerMinute: body.rate_limit_per_minute,
        createdBy: caller.userId,
      })
      .returning();
    const [{ name }] = await tx.select({ name: creatorName }).from(users).where(eq(users.id, caller.userId));
    return { ...toApiKey(row!, name), secret: s.secret };
  });
}

/** Revokes a live key of this owner (another's, a revoked or a missing one: VALIDATION-1000). */
export async function revokeKey(ctx: ServerContext, caller: Caller, owner: KeyOwner, keyId: string): Promise<void> {
  if (!UUID_RE.test(keyId)) throw notFoundOrForeign('API key', keyId);
  const done = await ctx.db
    .update(apiKeys)
    .set({ revokedAt: new Date(), revokedBy: caller.userId })
    .where(and(eq(apiKeys.id, keyId), ownerWhere(owner), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  if (!done.length) throw notFoundOrForeign('API key', keyId);
  forgetApiKeys();
}

export const KEY_MANAGERS = { app: MANAGERS, space: OWNER_ONLY } as const;
