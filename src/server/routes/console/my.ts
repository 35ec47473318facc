import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../../../schemas/common';
import { MyOverview } from '../../../../schemas/my';
import type { ServerContext } from '../../context';
import { requireCaller } from '../../context';
import { myOverview } from '../../services/my';

const tags = ['console: my'];

/** The caller's own page (/operation/my): any signed-in user, about themselves only. */
export const consoleMyRoutes = (ctx: ServerContext): FastifyPluginAsyncZod => async (app) => {
  app.get(
    '/',
    {
      schema: {
        tags,
        summary: 'What the caller created (apps, knowledge bases, prompts, tools) in the project spaces they belong to, their store submissions and their recent runs',
        response: { 200: ok(MyOverview) },
      },
    },
    async (req) => ({ code: 0 as const, msg: 'success', data: await myOverview(ctx, requireCaller(req)) }),
  );
};
