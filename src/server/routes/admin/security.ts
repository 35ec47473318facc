import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../../../schemas/common';
import { NetworkPolicy, NetworkPolicyBody } from '../../../../schemas/network-policy';
import type { ServerContext } from '../../context';
import { requirePermission } from '../../security/system-permissions';
import { storedPolicyChanged, writeStoredPolicy, type StoredNetworkPolicy } from '../../security/network-settings';

const tags = ['admin: security'];
const done = <T>(data: T) => ({ code: 0 as const, msg: 'success', data });

/**
 * The operator's outbound network policy (README "Security"): super admins only, whatever their
 * tenant (a tenant admin must not open the server's networks to tenants). GET shows the
 * environment's lists (read-only) beside the stored ones; PUT replaces the stored ones, effective at
 * once in this process and within seconds in the others on the same database.
 */
export const adminSecurityRoutes = (ctx: ServerContext): FastifyPluginAsyncZod => async (app) => {
  const superAdmin = (req: Parameters<typeof requirePermission>[0]) => requirePermission(req, 'security.manage');
  // Role first, so that a caller without the role gets 403 whatever the input.
  app.addHook('preValidation', async (req) => {
    superAdmin(req);
  });

  const view = (stored: StoredNetworkPolicy): NetworkPolicy => ({
    env: { allow: ctx.settings.outboundAllow, mcp_stdio_commands: ctx.settings.mcpStdioCommands, allow_private: ctx.settings.httpAllowPrivate },
    stored: { allow: stored.allow, mcp_stdio_commands: stored.mcp_stdio_commands },
    updated_at: stored.updated_at,
    updated_by: stored.updated_by,
  });

  app.get(
    '/network-policy',
    { schema: { tags, summary: 'The outbound allow-list and the stdio MCP commands: from the environment (read-only) and stored', response: { 200: ok(NetworkPolicy) } } },
    async (req) => {
      superAdmin(req);
      // Fresh from the database: the page shows what another super admin saved a moment ago.
      ctx.outbound.invalidate();
      return done(view(await ctx.outbound.stored()));
    },
  );

  app.put(
    '/network-policy',
    {
      schema: {
        tags,
        summary: 'Replace the stored allow-list (host, host:port, *.suffix, CIDR, CIDR:port; IPv6 in brackets) and stdio MCP commands',
        body: NetworkPolicyBody,
        response: { 200: ok(NetworkPolicy) },
      },
    },
    async (req) => {
      const caller = superAdmin(req);
      const unique = (xs: string[]) => [...new Set(xs)];
      const stored = await writeStoredPolicy(ctx.db, { allow: unique(req.body.allow), mcp_stdio_commands: unique(req.body.mcp_stdio_commands) }, caller.username);
      // Every process reads the lists again (a notice), this one keeps what it wrote.
      storedPolicyChanged();
      ctx.outbound.invalidate(stored);
      return done(view(stored));
    },
  );
};
