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
import type { ServerContext } from '../../context';
import * as svc from '../../services/prompts';
import { scopeOf } from '../../services/workspace-resources';

const tags = ['console: prompts'];
const headers = z.looseObject({ 'x-workspace-id': z.string().optional().describe('The project space (required; missing: VALIDATION-1008)') });
// Checked by the service: a malformed, missing or other workspace's id is VALIDATION-1000.
const Params = z.object({ id: z.string().describe('Prompt id') });
const done = <T>(data: T) => ({ code: 0 as const, msg: 'success', data });

/**
 * Prompts of the project space named by X-Workspace-Id (spec 3, 5, 7.5, 9). Debug runs
 * (completion-messages and its stop), optimization_prompt, generate_question and publish need
 * model providers or the store and come with those issues.
 */
export const promptRoutes = (ctx: ServerContext): FastifyPluginAsyncZod => async (app) => {
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
