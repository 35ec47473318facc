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

/**
 * Verifies the bearer token on every /api request (except the public ones) and sets `req.caller`.
 * The user row is re-read so that a disabled account, a disabled tenant or a password change
 * (token_version) takes effect at once.
 */
export function registerAuth(app: FastifyInstance, ctx: ServerContext) {
  app.decorateRequest('caller', null);
  app.addHook('onRequest', async (req) => {
    const url = req.url.split('?')[0];
    if (!url.startsWith('/api/') || PUBLIC.has(url)) return;
    const header = req.headers.authorization;
    if (!header?.startsWith('Bearer ')) throw unauthenticated();
    const claims = await ctx.tokens.verifyAccess(header.slice(7).trim());
    if (!claims) throw unauthenticated('The access token is invalid or expired');
    const rows = await ctx.db
      .select({ user: users, tenantStatus: tenants.status })
      .from(users)
      .innerJoin(tenants, eq(tenants.id, users.tenantId))
      .where(eq(users.id, claims.sub));
    const row = rows[0];
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
