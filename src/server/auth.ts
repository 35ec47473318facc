import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import type { ServerContext } from './context';
import { tenants, users } from './db/schema';
import { AppError, unauthenticated } from './errors';
import { ErrorCode } from '../../schemas/errors';

/** Paths under /api that need no token. */
const PUBLIC = new Set([
  '/api/v1/console/base/login',
  '/api/v1/console/base/refresh',
  '/api/v1/common/tenants/default/info',
  '/api/v1/common/tenants/default/list',
  '/api/v1/openapi.json',
]);
/** Public paths with an id in them: uploaded icons, shown by <img src> which sends no token. */
const PUBLIC_PATTERNS = [/^\/api\/v1\/common\/files\/[^/]+\/icon$/];

/**
 * Recently verified users (role, status, token version, tenant status), per database, for a moment:
 * every API request would otherwise wait for this read, a run's first token included. Writes that
 * change any of it call {@link forgetCallers} (this process at once); another process's writes are
 * seen within CALLER_TTL_MS.
 */
const CALLER_TTL_MS = 1_000;
type CallerRow = { user: typeof users.$inferSelect; tenantStatus: number };
const callerCaches = new WeakMap<object, Map<string, { at: number; generation: number; row: CallerRow | undefined }>>();
let callersGeneration = 0;
/** Drops every cached caller: call after changing a user's role, status, password or a tenant's status. */
export function forgetCallers(): void {
  callersGeneration++;
}

async function callerRow(ctx: ServerContext, userId: string): Promise<CallerRow | undefined> {
  let cache = callerCaches.get(ctx.db);
  if (!cache) callerCaches.set(ctx.db, (cache = new Map()));
  const hit = cache.get(userId);
  if (hit && hit.generation === callersGeneration && Date.now() - hit.at < CALLER_TTL_MS) return hit.row;
  const generation = callersGeneration;
  const rows = await ctx.db
    .select({ user: users, tenantStatus: tenants.status })
    .from(users)
    .innerJoin(tenants, eq(tenants.id, users.tenantId))
    .where(eq(users.id, userId));
  cache.set(userId, { at: Date.now(), generation, row: rows[0] });
  if (cache.size > 10_000) cache.delete(cache.keys().next().value!);
  return rows[0];
}

/**
 * Verifies the bearer token on every /api request (except the public ones) and sets `req.caller`.
 * The user row is re-read so that a disabled account, a disabled tenant or a password change
 * (token_version) takes effect at once.
 */
export function registerAuth(app: FastifyInstance, ctx: ServerContext) {
  app.decorateRequest('caller', null);
  app.addHook('onRequest', async (req) => {
    const url = req.url.split('?')[0];
    if (!url.startsWith('/api/') || PUBLIC.has(url) || (req.method === 'GET' && PUBLIC_PATTERNS.some((re) => re.test(url)))) return;
    const header = req.headers.authorization;
    if (!header?.startsWith('Bearer ')) throw unauthenticated();
    const claims = await ctx.tokens.verifyAccess(header.slice(7).trim());
    if (!claims) throw unauthenticated('The access token is invalid or expired');
    const row = await callerRow(ctx, claims.sub);
    if (!row || row.user.tokenVersion !== claims.tv || row.user.tenantId !== claims.tid) {
      throw unauthenticated('The session is no longer valid');
    }
    if (row.user.status !== 1 || row.tenantStatus !== 1) {
      throw new AppError(401, ErrorCode.ACCOUNT_DISABLED, 'The account or its tenant is disabled');
    }
    const tenantHeader = req.headers['x-tenant-id'];
    if (typeof tenantHeader === 'string' && tenantHeader !== '' && tenantHeader !== row.user.tenantId) {
      throw new AppError(403, ErrorCode.FORBIDDEN, 'The tenant header does not match the signed-in tenant');
    }
    req.caller = { userId: row.user.id, tenantId: row.user.tenantId, role: row.user.role, username: row.user.username };
  });
}
