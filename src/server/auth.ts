import { cacheChanged, onCacheChange } from './cache-notices';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { and, eq } from 'drizzle-orm';
import type { ServerContext } from './context';
import { authSessions, tenants, users } from './db/schema';
import { AppError, unauthenticated } from './errors';
import { ErrorCode } from '../../schemas/errors';

/** Paths under /api that need no token. */
const PUBLIC = new Set([
  '/api/v1/console/base/login',
  '/api/v1/console/base/refresh',
  // Verification-code sign-in: sending a code and signing in with it.
  '/api/v1/console/base/send_code',
  '/api/v1/console/base/code_login',
  '/api/v1/common/tenants/default/info',
  '/api/v1/common/tenants/default/list',
  '/api/v1/openapi.json',
  // Single sign-on: the browser's round trip through the provider, and the ticket's exchange.
  '/api/v1/common/sso/auth-url',
  '/api/v1/common/sso/callback',
  '/api/v1/common/sso/ticket',
]);
/** Public paths with an id in them: uploaded icons, shown by <img src> which sends no token. */
const PUBLIC_PATTERNS = [/^\/api\/v1\/common\/files\/[^/]+\/icon$/];
/**
 * Paths where a token is used when valid but not required: logout also ends a session by its refresh
 * token, so an expired access token cannot leave the session alive (the route refuses without either).
 */
const OPTIONAL_AUTH = new Set(['/api/v1/console/base/logout']);

/**
 * Recently verified callers (role, status, token version, tenant status, whether the session is
 * live), per database and per user and session, for a moment: every API request would otherwise
 * wait for this read, a run's first token included. Writes that change any of it call
 * {@link forgetCallers} (this process at once, the others on the database by a notice: ./cache-notices.ts);
 * CALLER_TTL_MS bounds a notice missed. The embedded database has one process, so no notice to miss:
 * there an entry lasts until a change (an expiry put a read before a burst's first tokens every second).
 */
const CALLER_TTL_MS = 1_000;
type CallerRow = { user: typeof users.$inferSelect; tenantStatus: number; sessionLive: boolean };
const callerCaches = new WeakMap<object, Map<string, { at: number; generation: number; row: CallerRow | undefined }>>();
let callersGeneration = 0;
onCacheChange('callers', () => callersGeneration++);
/**
 * Drops every cached caller: call after changing a user's role, status, password, a tenant's status,
 * or ending a session (logout, refresh-token reuse).
 */
export function forgetCallers(): void {
  cacheChanged('callers');
}

/**
 * Reads of callers on their way, per database and key: requests of one user and session that
 * arrive together (a burst of chat messages, a page's parallel calls) share one read.
 */
const callerReads = new WeakMap<object, Map<string, { generation: number; read: Promise<CallerRow | undefined> }>>();

async function callerRow(ctx: ServerContext, userId: string, sessionId: string): Promise<CallerRow | undefined> {
  let cache = callerCaches.get(ctx.db);
  if (!cache) callerCaches.set(ctx.db, (cache = new Map()));
  const key = `${userId} ${sessionId}`;
  const hit = cache.get(key);
  if (hit && hit.generation === callersGeneration && (ctx.exclusiveDb || Date.now() - hit.at < CALLER_TTL_MS)) return hit.row;
  let reads = callerReads.get(ctx.db);
  if (!reads) callerReads.set(ctx.db, (reads = new Map()));
  const going = reads.get(key);
  // A read begun before a forgetCallers() may hold what was just changed: not shared.
  if (going && going.generation === callersGeneration) return going.read;
  const generation = callersGeneration;
  const read = readCallerRow(ctx, userId, sessionId).finally(() => {
    if (reads.get(key)?.read === read) reads.delete(key);
  });
  reads.set(key, { generation, read });
  const row = await read;
  cache.set(key, { at: Date.now(), generation, row });
  if (cache.size > 10_000) cache.delete(cache.keys().next().value!);
  return row;
}

async function readCallerRow(ctx: ServerContext, userId: string, sessionId: string): Promise<CallerRow | undefined> {
  const rows = await ctx.db
    .select({ user: users, tenantStatus: tenants.status, sessionId: authSessions.id, sessionRevokedAt: authSessions.revokedAt })
    .from(users)
    .innerJoin(tenants, eq(tenants.id, users.tenantId))
    .leftJoin(authSessions, and(eq(authSessions.id, sessionId), eq(authSessions.userId, users.id)))
    .where(eq(users.id, userId));
  const r = rows[0];
  return r && { user: r.user, tenantStatus: r.tenantStatus, sessionLive: r.sessionId !== null && r.sessionRevokedAt === null };
}

/**
 * Verifies the bearer token on every /api request (except the public ones) and sets `req.caller`.
 * The user and session rows are re-read (kept for at most CALLER_TTL_MS) so that a disabled account,
 * a disabled tenant, a password change (token_version) or an ended session (logout, refresh-token
 * reuse) takes effect at once.
 */
export function registerAuth(app: FastifyInstance, ctx: ServerContext) {
  app.decorateRequest('caller', null);
  app.addHook('onRequest', async (req) => {
    const url = req.url.split('?')[0];
    if (!url.startsWith('/api/') || PUBLIC.has(url) || (req.method === 'GET' && PUBLIC_PATTERNS.some((re) => re.test(url)))) return;
    if (!OPTIONAL_AUTH.has(url)) return authenticate(req);
    try {
      await authenticate(req);
    } catch {
      req.caller = null;
    }
  });

  async function authenticate(req: FastifyRequest) {
    const header = req.headers.authorization;
    if (!header?.startsWith('Bearer ')) throw unauthenticated();
    const claims = await ctx.tokens.verifyAccess(header.slice(7).trim());
    if (!claims) throw unauthenticated('The access token is invalid or expired');
    const row = await callerRow(ctx, claims.sub, claims.sid);
    if (!row || row.user.tokenVersion !== claims.tv || row.user.tenantId !== claims.tid || !row.sessionLive) {
      throw unauthenticated('The session is no longer valid');
    }
    if (row.user.status !== 1 || row.tenantStatus !== 1) {
      throw new AppError(401, ErrorCode.ACCOUNT_DISABLED, 'The account or its tenant is disabled');
    }
    const tenantHeader = req.headers['x-tenant-id'];
    if (typeof tenantHeader === 'string' && tenantHeader !== '' && tenantHeader !== row.user.tenantId) {
      throw new AppError(403, ErrorCode.FORBIDDEN, 'The tenant header does not match the signed-in tenant');
    }
    req.caller = { userId: row.user.id, tenantId: row.user.tenantId, role: row.user.role, username: row.user.username, sessionId: claims.sid };
  }
}
