import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../../../schemas/common';
import { ApiKey, ApiKeyCreateBody, ApiKeyCreated, McpExposure, McpExposureBody } from '../../../../schemas/app-api';
import { requireCaller, type ServerContext } from '../../context';
import { createKey, KEY_MANAGERS, listKeys, revokeKey, spaceKeyOwner } from '../../services/api-keys';
import { getExposure, putExposure } from '../../services/mcp-exposure';

const tags = ['console: MCP'];
const Params = z.object({ workspace_id: z.string().max(64) });
const KeyParams = Params.extend({ key_id: z.string().max(64) });
const done = <T>(data: T) => ({ code: 0 as const, msg: 'success', data });

/**
 * A project space's MCP endpoint (schemas/app-api.ts McpExposure) and its keys: every member reads;
 * the owner turns it on or off, chooses the published workflow apps offered, and creates and revokes
 * the space's keys (PERMISSION-1000 for anyone else).
 */
export const mcpConsoleRoutes = (ctx: ServerContext): FastifyPluginAsyncZod => async (app) => {
  app.get(
    '/:workspace_id/mcp',
    { schema: { tags, summary: "The space's MCP endpoint: on or off, the workflow apps offered, its path (any member)", params: Params, response: { 200: ok(McpExposure) } } },
    async (req) => done(await getExposure(ctx, requireCaller(req), req.params.workspace_id)),
  );

  app.put(
    '/:workspace_id/mcp',
    { schema: { tags, summary: 'Turn the MCP endpoint on or off and choose the published workflow apps it offers (the owner)', params: Params, body: McpExposureBody, response: { 200: ok(McpExposure) } } },
    async (req) => done(await putExposure(ctx, requireCaller(req), req.params.workspace_id, req.body)),
  );

  app.get(
    '/:workspace_id/mcp/keys',
    { schema: { tags, summary: "The space's live MCP keys, masked, newest first (any member)", params: Params, response: { 200: ok(z.array(ApiKey)) } } },
    async (req) => done(await listKeys(ctx, await spaceKeyOwner(ctx, requireCaller(req), req.params.workspace_id))),
  );

  app.post(
    '/:workspace_id/mcp/keys',
    { schema: { tags, summary: 'Create a key of the MCP endpoint (the owner); the secret is in this answer only', params: Params, body: ApiKeyCreateBody, response: { 200: ok(ApiKeyCreated) } } },
    async (req) => {
      const caller = requireCaller(req);
      return done(await createKey(ctx, caller, await spaceKeyOwner(ctx, caller, req.params.workspace_id, KEY_MANAGERS.space), req.body));
    },
  );

  app.delete(
    '/:workspace_id/mcp/keys/:key_id',
    { schema: { tags, summary: 'Revoke a key of the MCP endpoint (the owner): it stops working at once', params: KeyParams, response: { 200: ok(z.null()) } } },
    async (req) => {
      const caller = requireCaller(req);
      await revokeKey(ctx, caller, await spaceKeyOwner(ctx, caller, req.params.workspace_id, KEY_MANAGERS.space), req.params.key_id);
      return done(null);
    },
  );
};
