import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AgentBuilderParams, GenerateAgentBody, GeneratedAgent, OptimizeInstructionsBody } from '../../../../schemas/agent-builder';
import { ok } from '../../../../schemas/common';
import type { ServerContext } from '../../context';
import { sendSse } from '../../http/sse';
import * as svc from '../../services/agent-builder';
import { scopeOf } from '../../services/workspace-resources';

const tags = ['console: agent builder'];
const headers = z.looseObject({ 'x-workspace-id': z.string().optional().describe('The app’s project space (required; missing: VALIDATION-1008)') });
const done = <T>(data: T) => ({ code: 0 as const, msg: 'success', data });

/**
 * The agent builder's AI calls under /console/apps/{app_id}/agent-builder (services/agent-builder.ts):
 * builders of the app's project space, the tenant's default LLM, nothing stored.
 */
export const agentBuilderRoutes = (ctx: ServerContext): FastifyPluginAsyncZod => async (app) => {
  const running = new Set<AbortController>();
  // On shutdown the model calls stop; the server's close then cuts their streams.
  app.addHook('preClose', async () => running.forEach((c) => c.abort()));

  app.post(
    '/:app_id/agent-builder/optimize',
    {
      schema: {
        tags,
        summary:
          'Optimize the agent’s instructions (builders): streams the rewrite as SSE: optimize_started, text_chunk…, then optimize_end (the whole text, references dropped or added) or error. No model: VALIDATION-1000 before the stream',
        headers,
        params: AgentBuilderParams,
        body: OptimizeInstructionsBody,
        response: { 200: z.string().describe('text/event-stream of schemas/agent-builder.ts OptimizeEvent frames') },
      },
    },
    async (req, reply) => {
      const started = await svc.startOptimize(ctx, scopeOf(req), req.params.app_id, req.body);
      running.add(started.controller);
      async function* frames() {
        try {
          for await (const e of started.events) yield svc.optimizeFrame(e);
        } finally {
          running.delete(started.controller);
        }
      }
      // Nothing is stored: a client that goes away (the builder rejected or left) stops the call.
      await sendSse(reply, frames(), { onClientGone: () => started.controller.abort(), onError: (e) => req.log.error({ err: e }, 'optimize stream failed') });
    },
  );

  app.post(
    '/:app_id/agent-builder/generate',
    {
      schema: {
        tags,
        summary: 'A first configuration from a description (builders): instructions, opening statement, suggested questions, user-input variables. Nothing is saved',
        headers,
        params: AgentBuilderParams,
        body: GenerateAgentBody,
        response: { 200: ok(GeneratedAgent) },
      },
    },
    async (req) => done(await svc.generateAgent(ctx, scopeOf(req), req.params.app_id, req.body)),
  );
};
