import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../../../schemas/common';
import { AvailableProvider, AvailableQuery, DefaultModel, DefaultModelQuery, ParameterRule, ParameterRulesQuery, ParameterSuggestion } from '../../../../schemas/model';
import type { ServerContext } from '../../context';
import { requireCaller } from '../../context';
import { parameterRulesOf, parameterSuggestionsOf } from '../../providers/catalogue';
import * as svc from '../../services/models';

const tags = ['console: models'];
const done = <T>(data: T) => ({ code: 0 as const, msg: 'success', data });

/**
 * What builders read to pick a model and its parameters (spec 7.5 models): any signed-in user, in
 * the caller's tenant. Managing models is the admin group's work (routes/admin/models.ts).
 */
export const consoleModelRoutes = (ctx: ServerContext): FastifyPluginAsyncZod => async (app) => {
  app.addHook('preValidation', async (req) => {
    requireCaller(req);
  });

  app.get(
    '/available',
    { schema: { tags, summary: 'Enabled models of one type from configured providers', querystring: AvailableQuery, response: { 200: ok(z.array(AvailableProvider)) } } },
    async (req) => done(await svc.availableModels(ctx, requireCaller(req).tenantId, req.query.model_type)),
  );

  app.get(
    '/tenant-default',
    { schema: { tags, summary: "The tenant's default model of a type (null: none)", querystring: DefaultModelQuery, response: { 200: ok(DefaultModel.nullable()) } } },
    async (req) => done(await svc.getDefault(ctx, requireCaller(req).tenantId, req.query.model_type)),
  );

  app.get(
    '/parameter-rules',
    { schema: { tags, summary: 'Parameter rules of a model (keyed by provider and model)', querystring: ParameterRulesQuery, response: { 200: ok(z.array(ParameterRule)) } } },
    async (req) => {
      const { provider, model, model_type } = req.query;
      const m = await svc.modelOf(ctx, requireCaller(req).tenantId, provider, model, model_type);
      return done(parameterRulesOf(svc.catalogueEntry(provider), m));
    },
  );

  app.get(
    '/model-parameter-suggestions',
    {
      schema: { tags, summary: 'Parameter presets (precise, balanced, creative) within the model rules', querystring: ParameterRulesQuery, response: { 200: ok(z.array(ParameterSuggestion)) } },
    },
    async (req) => {
      const { provider, model, model_type } = req.query;
      const m = await svc.modelOf(ctx, requireCaller(req).tenantId, provider, model, model_type);
      return done(parameterSuggestionsOf(parameterRulesOf(svc.catalogueEntry(provider), m)));
    },
  );
};
