import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../../../schemas/common';
import { DistributionCreateBody, DistributionList, DistributionParams, DistributionUpdateBody } from '../../../../schemas/distribution';
import type { ServerContext } from '../../context';
import * as svc from '../../services/distribution';
import { scopeOf } from '../../services/workspace-resources';

const tags = ['console: app distribution'];
const headers = z.looseObject({ 'x-workspace-id': z.string().optional().describe('The project space (required; missing: VALIDATION-1008)') });
const AppOnly = DistributionParams.pick({ app_id: true });
const done = <T>(data: T) => ({ code: 0 as const, msg: 'success', data });
const answer = { 200: ok(DistributionList) };

/**
 * App distribution (spec 7.5 "app distribution"; schemas/distribution.ts). Any member of the app's
 * project space reads; only its owner distributes, moves and cancels (PERMISSION-1000 for admins and
 * members, checked here on the server). Every write answers the whole list, as GET does.
 */
export const distributionRoutes = (ctx: ServerContext): FastifyPluginAsyncZod => async (app) => {
  app.get(
    '/:app_id/distribution',
    { schema: { tags, summary: "Every platform's distribution state, version and who/when, with what blocks the caller (any member)", headers, params: AppOnly, response: answer } },
    async (req) => done(await svc.listDistribution(ctx, scopeOf(req), req.params.app_id)),
  );

  app.post(
    '/:app_id/distribution',
    {
      schema: {
        tags,
        summary: 'Distribute the app on a platform (again after a cancel), serving a published version (default: the newest); the space owner only',
        headers,
        params: AppOnly,
        body: DistributionCreateBody,
        response: answer,
      },
    },
    async (req) => done(await svc.distribute(ctx, scopeOf(req), req.params.app_id, req.body)),
  );

  app.put(
    '/:app_id/distribution',
    {
      schema: { tags, summary: 'Move a distribution to another published version of the app; the space owner only', headers, params: AppOnly, body: DistributionUpdateBody, response: answer },
    },
    async (req) => done(await svc.moveDistribution(ctx, scopeOf(req), req.params.app_id, req.body)),
  );

  app.delete(
    '/:app_id/distribution/:distribution_id',
    {
      schema: { tags, summary: 'Cancel a distribution (the record stays, with who and when; it can be distributed again); the space owner only', headers, params: DistributionParams, response: answer },
    },
    async (req) => done(await svc.cancelDistribution(ctx, scopeOf(req), req.params.app_id, req.params.distribution_id)),
  );
};
