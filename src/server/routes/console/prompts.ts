import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok, page } from '../../../../schemas/common';
import {
  ParseVariablesBody,
  ParseVariablesParams,
  ParseVariablesResult,
  Prompt,
  PromptCreateBody,
  PromptListQuery,
  PromptUpdateBody,
} from '../../../../schemas/prompt';
import {
  DebugStopParams,
  DebugStopResult,
  GenerateQuestionBody,
  GenerateQuestionResult,
  OptimizePromptBody,
  OptimizePromptResult,
  PromptDebugBody,
} from '../../../../schemas/prompt-debug';
import type { ServerContext } from '../../context';
import { sendSse } from '../../http/sse';
import * as debug from '../../services/prompt-debug';
import * as svc from '../../services/prompts';
import { scopeOf } from '../../services/workspace-resources';

const tags = ['console: prompts'];
const headers = z.looseObject({ 'x-workspace-id': z.string().optional().describe('The project space (required; missing: VALIDATION-1008)') });
// Checked by the service: a malformed, missing or other workspace's id is VALIDATION-1000.
const Params = z.object({ id: z.string().describe('Prompt id') });
const done = <T>(data: T) => ({ code: 0 as const, msg: 'success', data });

/**
 * Prompts of the project space named by X-Workspace-Id (spec 3, 5, 7.5, 9), and the debug view's
 * calls (services/prompt-debug.ts): completion-messages (a debug run streamed as SSE) and its
 * stop, optimization_prompt and generate_question. Publish needs the store and comes with it.
 */
export const promptRoutes = (ctx: ServerContext): FastifyPluginAsyncZod => async (app) => {
  const registry = new debug.DebugRegistry();
  // On shutdown debug runs are stopped; the server's close then cuts their streams.
  app.addHook('preClose', async () => registry.stopAll());

  async function streamDebug(req: FastifyRequest & { body: z.output<typeof PromptDebugBody> }, reply: FastifyReply) {
    const started = await debug.startDebug(ctx, scopeOf(req), registry, req.body);
    async function* frames() {
      for await (const e of started.events) yield debug.debugFrame(e);
    }
    // A debug message is not stored: a client that goes away stops it.
    await sendSse(reply, frames(), { onClientGone: () => started.controller.abort(), onError: (e) => req.log.error({ err: e }, 'debug stream failed') });
  }

  app.post(
    '/completion-messages',
    {
      schema: {
        tags,
        summary:
          'Debug run (any member): renders the template with the values and streams the answer as SSE: message_created, text_chunk…, then message_end (succeeded or stopped, usage) or error',
        headers,
        body: PromptDebugBody,
        response: { 200: z.string().describe('text/event-stream of schemas/prompt-debug.ts PromptDebugEvent frames') },
      },
    },
    (req, reply) => streamDebug(req, reply),
  );

  app.post(
    '/completion-messages/:id/stop',
    {
      schema: {
        tags,
        summary: 'Stop a debug run you started (stopped: false when it had already ended; someone else\'s or unknown: VALIDATION-1000)',
        headers,
        params: DebugStopParams,
        response: { 200: ok(DebugStopResult) },
      },
    },
    async (req) => {
      const s = scopeOf(req);
      await svc.requireMember(ctx, s);
      return done({ stopped: registry.stop(req.params.id, s) });
    },
  );

  app.post(
    '/optimization_prompt',
    {
      schema: {
        tags,
        summary: "A model rewrites the template keeping its placeholders (any member); a rewrite that drops or adds one is refused (VALIDATION-1000)",
        headers,
        body: OptimizePromptBody,
        response: { 200: ok(OptimizePromptResult) },
      },
    },
    async (req) => done(await debug.optimizePrompt(ctx, scopeOf(req), req.body)),
  );

  app.post(
    '/generate_question',
    {
      schema: { tags, summary: 'A model proposes test questions for the prompt (any member)', headers, body: GenerateQuestionBody, response: { 200: ok(GenerateQuestionResult) } },
    },
    async (req) => done(await debug.generateQuestions(ctx, scopeOf(req), req.body)),
  );
  app.get(
    '/',
    {
      schema: {
        tags,
        summary: 'Prompts of the project space, last changed first (any member)',
        headers,
        querystring: PromptListQuery,
        response: { 200: ok(page(Prompt)) },
      },
    },
    async (req) => done(await svc.listPrompts(ctx, scopeOf(req), req.query)),
  );

  app.post(
    '/',
    {
      schema: {
        tags,
        summary: 'Create a prompt (owner, admin); variables left out are parsed from the content',
        headers,
        body: PromptCreateBody,
        response: { 200: ok(Prompt) },
      },
    },
    async (req) => {
      const { id: _id, ...input } = req.body;
      return done(await svc.createPrompt(ctx, scopeOf(req), input));
    },
  );

  app.put(
    '/',
    { schema: { tags, summary: 'Change a prompt (owner, admin)', headers, body: PromptUpdateBody, response: { 200: ok(Prompt) } } },
    async (req) => done(await svc.updatePrompt(ctx, scopeOf(req), req.body)),
  );

  app.post(
    '/:template_type/parse-variables',
    {
      schema: {
        tags,
        summary: 'Variable names of a template in order of first appearance (any member); invalid: VALIDATION-1000 with the position',
        headers,
        params: ParseVariablesParams,
        body: ParseVariablesBody,
        response: { 200: ok(ParseVariablesResult) },
      },
    },
    async (req) => done(await svc.parseVariables(ctx, scopeOf(req), req.params.template_type, req.body.content)),
  );

  app.get(
    '/:id',
    { schema: { tags, summary: 'One prompt (any member)', headers, params: Params, response: { 200: ok(Prompt) } } },
    async (req) => done(await svc.getPrompt(ctx, scopeOf(req), req.params.id)),
  );

  app.delete(
    '/:id',
    { schema: { tags, summary: 'Delete a prompt (owner, admin)', headers, params: Params, response: { 200: ok(z.null()) } } },
    async (req) => {
      await svc.deletePrompt(ctx, scopeOf(req), req.params.id);
      return done(null);
    },
  );
};
