import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../../../schemas/common';
import { ApiKey, ApiKeyCreateBody, ApiKeyCreated, ApiKeyParams, Overview, OverviewQuery } from '../../../../schemas/app-api';
import { RunAppParams } from '../../../../schemas/run-api';
import type { ServerContext } from '../../context';
import { requireApp } from '../../runs/app-flow';
import { appKeyOwner, createKey, KEY_MANAGERS, listKeys, revokeKey } from '../../services/api-keys';
import { appOverview } from '../../services/overview';
import { scopeOf } from '../../services/workspace-resources';

const tags = ['console: app API'];
const headers = z.looseObject({ 'x-workspace-id': z.string().optional().describe('The project space (required; missing: VALIDATION-1008)') });
const done = <T>(data: T) => ({ code: 0 as const, msg: 'success', data });

/**
 * An app as a service (schemas/app-api.ts): its public-API keys (every member lists them masked;
 * owner and admin create and revoke, PERMISSION-1000 otherwise) and its overview (any member).
 */
export const appApiRoutes = (ctx: ServerContext): FastifyPluginAsyncZod => async (app) => {
  app.get(
    '/:app_id/api-keys',
    { schema: { tags, summary: "The app's live API keys, masked, newest first (any member)", headers, params: RunAppParams, response: { 200: ok(z.array(ApiKey)) } } },
    async (req) => {
      const s = scopeOf(req);
      return done(await listKeys(ctx, await appKeyOwner(ctx, s.caller, s.workspaceId, req.params.app_id)));
    },
  );

  app.post(
    '/:app_id/api-keys',
    {
      schema: {
        tags,
        summary: 'Create an API key (owner and admin); the secret is in this answer only',
        headers,
        params: RunAppParams,
        body: ApiKeyCreateBody,
        response: { 200: ok(ApiKeyCreated) },
      },
    },
    async (req) => {
      const s = scopeOf(req);
      const owner = await appKeyOwner(ctx, s.caller, s.workspaceId, req.params.app_id, KEY_MANAGERS.app);
      return done(await createKey(ctx, s.caller, owner, req.body));
    },
  );

  app.delete(
    '/:app_id/api-keys/:key_id',
    { schema: { tags, summary: 'Revoke an API key (owner and admin): it stops working at once', headers, params: ApiKeyParams, response: { 200: ok(z.null()) } } },
    async (req) => {
      const s = scopeOf(req);
      const owner = await appKeyOwner(ctx, s.caller, s.workspaceId, req.params.app_id, KEY_MANAGERS.app);
      await revokeKey(ctx, s.caller, owner, req.params.key_id);
      return done(null);
    },
  );

  app.get(
    '/:app_id/overview',
    {
      schema: {
        tags,
        summary: "Per day over the period (in the time zone `tz`): runs, conversations, messages, active users, tokens, average and p95 latency, error rate; and the period's totals (any member)",
        headers,
        params: RunAppParams,
        querystring: OverviewQuery,
        response: { 200: ok(Overview) },
      },
    },
    async (req) => done(await appOverview(ctx, await requireApp(ctx, { ...scopeOf(req), appId: req.params.app_id }), req.query)),
  );
};
