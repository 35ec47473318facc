import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../../../schemas/common';
import {
  AvailableProvider,
  AvailableQuery,
  CredentialsSaveBody,
  CredentialsTestResult,
  CredentialsValidateBody,
  CustomModelBody,
  CustomModelDeleteQuery,
  DefaultModel,
  DefaultModelQuery,
  Model,
  ModelListQuery,
  ModelProvider,
  ModelToggleBody,
  ModelType,
  ProviderCredentialsOut,
} from '../../../../schemas/model';
import type { ServerContext } from '../../context';
import { requirePermission } from '../../security/system-permissions';
import { badRequest } from '../../errors';
import { ModelService } from '../../providers/model-service';
import { OutboundRefusedError } from '../../security/outbound-policy';
import * as svc from '../../services/models';

const tags = ['admin: models'];
const ProviderParams = z.object({ provider: z.string().describe('Provider id of the catalogue (unknown: VALIDATION-1000)') });
const done = <T>(data: T) => ({ code: 0 as const, msg: 'success', data });
const DefaultEntry = z.object({ model_type: ModelType, default: DefaultModel.nullable() });

async function assertBaseUrlAllowed(ctx: ServerContext, baseUrl: string | undefined) {
  let url: URL;
  try {
    url = new URL(baseUrl ?? '');
  } catch {
    return;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return;
  await ctx.outbound.admitUrl(url, 'model').catch((e: unknown) => {
    if (e instanceof OutboundRefusedError) throw e;
  });
}

/**
 * Model management of the system area (spec 7.4 models): super admins and tenant admins, always
 * in their own tenant (taken from the token).
 */
export const adminModelRoutes = (ctx: ServerContext): FastifyPluginAsyncZod => async (app) => {
  const models = new ModelService(ctx);
  const admin = (req: Parameters<typeof requirePermission>[0]) => requirePermission(req, 'models.manage');
  // Role first, so that a caller without the role gets 403 whatever the input.
  app.addHook('preValidation', async (req) => {
    admin(req);
  });

  app.get(
    '/available',
    { schema: { tags, summary: 'Enabled models of one type from configured providers', querystring: AvailableQuery, response: { 200: ok(z.array(AvailableProvider)) } } },
    async (req) => done(await svc.availableModels(ctx, admin(req).tenantId, req.query.model_type)),
  );

  app.get(
    '/tenant-default',
    { schema: { tags, summary: "The tenant's default model of a type (null: none)", querystring: DefaultModelQuery, response: { 200: ok(DefaultModel.nullable()) } } },
    async (req) => done(await svc.getDefault(ctx, admin(req).tenantId, req.query.model_type)),
  );

  app.put(
    '/tenant-default',
    { schema: { tags, summary: 'Set the default model of a type (must be configured and enabled)', body: DefaultModel, response: { 200: ok(DefaultModel) } } },
    async (req) => done(await svc.setDefault(ctx, admin(req).tenantId, req.body)),
  );

  app.get(
    '/tenant-default/all',
    { schema: { tags, summary: 'The default model of every type', response: { 200: ok(z.array(DefaultEntry)) } } },
    async (req) => done(await svc.allDefaults(ctx, admin(req).tenantId)),
  );

  app.get(
    '/model-providers',
    { schema: { tags, summary: 'The provider catalogue with whether the tenant configured each', response: { 200: ok(z.array(ModelProvider)) } } },
    async (req) => done(await svc.listProviders(ctx, admin(req).tenantId)),
  );

  const base = '/model-providers/:provider';

  app.get(
    `${base}/credentials`,
    { schema: { tags, summary: 'Saved credentials, the key masked', params: ProviderParams, response: { 200: ok(ProviderCredentialsOut) } } },
    async (req) => done(await svc.getCredentials(ctx, admin(req).tenantId, req.params.provider)),
  );

  app.post(
    `${base}/credentials`,
    {
      schema: {
        tags,
        summary: 'Save credentials (the key encrypted); a masked key keeps the stored one',
        params: ProviderParams,
        body: CredentialsSaveBody,
        response: { 200: ok(ProviderCredentialsOut) },
      },
    },
    async (req) => done(await svc.saveCredentials(ctx, admin(req), req.params.provider, req.body.credentials)),
  );

  app.delete(
    `${base}/credentials`,
    { schema: { tags, summary: 'Remove the credentials (and defaults using this provider)', params: ProviderParams, response: { 200: ok(z.null()) } } },
    async (req) => {
      await svc.deleteCredentials(ctx, admin(req).tenantId, req.params.provider);
      return done(null);
    },
  );

  app.post(
    `${base}/credentials/validate`,
    {
      schema: {
        tags,
        summary: 'Test credentials with a tiny real request (form values, or the saved ones when left out)',
        params: ProviderParams,
        body: CredentialsValidateBody,
        response: { 200: ok(CredentialsTestResult) },
      },
    },
    async (req) => {
      const { tenantId } = admin(req);
      const { provider } = req.params;
      const creds = await svc.resolveCredentialInput(ctx, tenantId, provider, req.body.credentials);
      const entry = svc.catalogueEntry(provider);
      const modelType = req.body.model_type ?? (req.body.model ? await svc.testTypeOf(ctx, tenantId, provider, req.body.model) : 'llm');
      const model = req.body.model ?? entry.models.find((m) => m.model_type === modelType)?.model;
      if (!model) throw badRequest('Parameter error: model Name a model to test with (this provider has no predefined one)', [{ path: 'model', message: 'required' }]);
      // A base URL the outbound policy refuses is refused here (NETWORK-1000), before any request;
      // one that cannot be reached is the test's own answer ('unreachable').
      await assertBaseUrlAllowed(ctx, creds.base_url);
      return done(await models.testCredentials(provider, creds, model, modelType));
    },
  );

  app.get(
    `${base}/models`,
    { schema: { tags, summary: 'Models of the provider (predefined and custom) with their enabled state', params: ProviderParams, querystring: ModelListQuery, response: { 200: ok(z.array(Model)) } } },
    async (req) => done(await svc.listModels(ctx, admin(req).tenantId, req.params.provider, req.query.model_type)),
  );

  for (const [action, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    app.put(
      `${base}/models/${action}`,
      { schema: { tags, summary: `${action === 'enable' ? 'Enable' : 'Disable'} a model`, params: ProviderParams, body: ModelToggleBody, response: { 200: ok(Model) } } },
      async (req) => done(await svc.setModelEnabled(ctx, admin(req).tenantId, req.params.provider, req.body.model, req.body.model_type, enabled)),
    );
  }

  app.get(
    `${base}/models/model-custom`,
    { schema: { tags, summary: 'Custom models of the provider', params: ProviderParams, response: { 200: ok(z.array(Model)) } } },
    async (req) => done(await svc.listCustomModels(ctx, admin(req).tenantId, req.params.provider)),
  );

  app.post(
    `${base}/models/model-custom`,
    { schema: { tags, summary: 'Add a custom model (enabled)', params: ProviderParams, body: CustomModelBody, response: { 200: ok(Model) } } },
    async (req) => done(await svc.addCustomModel(ctx, admin(req), req.params.provider, req.body)),
  );

  app.delete(
    `${base}/models/model-custom`,
    { schema: { tags, summary: 'Delete a custom model', params: ProviderParams, querystring: CustomModelDeleteQuery, response: { 200: ok(z.null()) } } },
    async (req) => {
      await svc.deleteCustomModel(ctx, admin(req).tenantId, req.params.provider, req.query.model, req.query.model_type);
      return done(null);
    },
  );
};
