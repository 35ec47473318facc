import { cacheChanged, onCacheChange } from '../cache-notices';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { ServerContext } from '../context';
import { apiKeys, tenants } from '../db/schema';

/**
 * Public-API keys (schemas/app-api.ts): `wk-` and 40 url-safe characters (240 random bits). Only the
 * SHA-256 of the secret is stored: for a secret this long a fast hash is as good as a slow one (no
 * guessing can find it), and the check stays off the request's time budget. `prefix` (the first 8
 * random characters) finds the row; the hash decides.
 */

export const KEY_PREFIX = 'wk-';
const PREFIX_LEN = KEY_PREFIX.length + 8;
const KEY_RE = /^wk-[A-Za-z0-9_-]{40}$/;

export const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** A new secret, with what is stored of it. */
export function newSecret(): { secret: string; prefix: string; secretHash: string; last4: string } {
  const secret = KEY_PREFIX + randomBytes(30).toString('base64url');
  return { secret, prefix: secret.slice(0, PREFIX_LEN), secretHash: hashSecret(secret), last4: secret.slice(-4) };
}

/** `wk-abcd…wxyz`: enough to recognise a key, never enough to use it. */
export const maskedKey = (prefix: string, last4: string) => `${prefix.slice(0, KEY_PREFIX.length + 4)}…${last4}`;

/** A live key, as the public routes use it. */
export interface VerifiedKey {
  id: string;
  tenantId: string;
  workspaceId: string;
  /** null: a project space's key (its MCP endpoint). */
  appId: string | null;
  name: string;
  /** Requests a minute; null: the server's default. */
  rateLimitPerMinute: number | null;
}

/**
 * Verified keys, for a few seconds: the check is on every public request's way (a blocking run's
 * budget is 2 ms), and a revoke drops them at once ({@link forgetApiKeys}), in the other processes
 * on the database too (../cache-notices.ts); KEY_TTL_MS bounds a notice missed.
 */
const KEY_TTL_MS = 5_000;
const CACHE_MAX = 10_000;
const caches = new WeakMap<object, Map<string, { at: number; generation: number; key: VerifiedKey | null }>>();
let generation = 0;
onCacheChange('api_keys', () => generation++);

/** Call after revoking a key (or anything that makes a verified key stale): every process forgets. */
export function forgetApiKeys(): void {
  cacheChanged('api_keys');
}

/** The live key whose secret this is (a revoked, unknown or malformed one, or a disabled tenant's: null). */
export async function verifyApiKey(ctx: ServerContext, secret: string): Promise<VerifiedKey | null> {
  if (!KEY_RE.test(secret)) return null;
  const hash = hashSecret(secret);
  let cache = caches.get(ctx.db);
  if (!cache) caches.set(ctx.db, (cache = new Map()));
  const hit = cache.get(hash);
  if (hit && hit.generation === generation && Date.now() - hit.at < KEY_TTL_MS) return hit.key;
  const seen = generation;
  const rows = await ctx.db
    .select({
      id: apiKeys.id,
      tenantId: apiKeys.tenantId,
      workspaceId: apiKeys.workspaceId,
      appId: apiKeys.appId,
      name: apiKeys.name,
      rateLimitPerMinute: apiKeys.rateLimitPerMinute,
      secretHash: apiKeys.secretHash,
    })
    .from(apiKeys)
    .innerJoin(tenants, eq(tenants.id, apiKeys.tenantId))
    .where(and(eq(apiKeys.prefix, secret.slice(0, PREFIX_LEN)), isNull(apiKeys.revokedAt), eq(tenants.status, 1)));
  const want = Buffer.from(hash, 'hex');
  const row = rows.find((r) => timingSafeEqual(Buffer.from(r.secretHash, 'hex'), want));
  const key: VerifiedKey | null = row
    ? { id: row.id, tenantId: row.tenantId, workspaceId: row.workspaceId, appId: row.appId, name: row.name, rateLimitPerMinute: row.rateLimitPerMinute }
    : null;
  cache.set(hash, { at: Date.now(), generation: seen, key });
  if (cache.size > CACHE_MAX) cache.delete(cache.keys().next().value!);
  return key;
}

/** When each key's last use was last written (per process): at most once a minute. */
const touched = new WeakMap<object, Map<string, number>>();
const TOUCH_EVERY_MS = 60_000;

/**
 * Records the key's use in `last_used_at`, at most once a minute per key and process, in the
 * background: a request never waits for it.
 */
export function touchApiKey(ctx: ServerContext, keyId: string, onError: (e: unknown) => void): void {
  let seen = touched.get(ctx.db);
  if (!seen) touched.set(ctx.db, (seen = new Map()));
  const now = Date.now();
  const last = seen.get(keyId);
  if (last !== undefined && now - last < TOUCH_EVERY_MS) return;
  seen.set(keyId, now);
  if (seen.size > CACHE_MAX) seen.delete(seen.keys().next().value!);
  ctx.db
    .update(apiKeys)
    .set({ lastUsedAt: sql`now()` })
    .where(eq(apiKeys.id, keyId))
    .then(undefined, onError);
}
