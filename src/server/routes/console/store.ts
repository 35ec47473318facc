import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../../../schemas/common';
import {
  SpaceStoreType,
  StoreCopyAnswer,
  StoreCopyBody,
  StoreItemDetail,
  StoreItemParams,
  StoreListAnswer,
  StoreListQuery,
  StorePublishBody,
  StoreSegmentPage,
  StoreSegmentParams,
  StoreSegmentQuery,
  StoreSubmission,
  StoreSubmissionQuery,
  StoreToolAuthorizationBody,
  StoreToolsByType,
} from '../../../../schemas/store';
import { ToolDetail } from '../../../../schemas/tool';
import type { ServerContext } from '../../context';
import { requireCaller } from '../../context';
import { scopeOf } from '../../services/workspace-resources';
import { getReleased, listReleased, snapshotSegments } from '../../store/items';
import { copyItem } from '../../store/copy';
import { publish, submission } from '../../store/publish';
import { authorizeTool } from '../../store/review';

const headers = z.looseObject({ 'x-workspace-id': z.string().optional().describe('The project space (required; missing: VALIDATION-1008)') });
const done = <T>(data: T) => ({ code: 0 as const, msg: 'success', data });

/** The URL segment of each store (spec 7.5: /store/apps, /store/datasets, /store/prompts, /store/tools). */
const SEGMENTS = { app: 'apps', dataset: 'datasets', prompt: 'prompts', tool: 'tools' } as const;
const LABELS = { app: 'app', dataset: 'knowledge base', prompt: 'prompt', tool: 'tool' } as const;

/**
 * The app, dataset, prompt and tool stores (spec 7.5; schemas/store.ts). Every user of the tenant lists
 * and reads released items (no X-Workspace-Id: the store is tenant-wide); copying needs the right to
 * create that kind in the target space (body `workspace_id`); publishing names the resource's space in
 * X-Workspace-Id (apps: its owner, through the `store` distribution; others: owner or admin).
 */
export const storeRoutes = (ctx: ServerContext): FastifyPluginAsyncZod => async (app) => {
  for (const type of SpaceStoreType.options) {
    const seg = SEGMENTS[type];
    const label = LABELS[type];
    const tags = [`console: ${label} store`];
    app.get(
      `/${seg}`,
      { schema: { tags, summary: `Released ${label}s of the tenant: search (name, description, tags), tag and kind filters, newest or most copied first`, querystring: StoreListQuery, response: { 200: ok(StoreListAnswer) } } },
      async (req) => done(await listReleased(ctx, requireCaller(req), type, req.query)),
    );
    if (type === 'tool') {
      app.get(
        '/tools/tools-by-type',
        { schema: { tags, summary: 'Released tools of the tenant grouped by tool type (custom, mcp)', response: { 200: ok(StoreToolsByType) } } },
        async (req) => {
          const all = await listReleased(ctx, requireCaller(req), 'tool', { page: 1, page_size: 100, sort: 'newest' });
          const grouped: Record<string, typeof all.items> = {};
          for (const item of all.items) (grouped[item.kind ?? 'custom'] ??= []).push(item);
          return done(grouped);
        },
      );
    }
    app.get(
      `/${seg}/:id`,
      { schema: { tags, summary: `One released ${label} with its snapshot (another tenant's, or one not released: VALIDATION-1000)`, params: StoreItemParams, response: { 200: ok(StoreItemDetail) } } },
      async (req) => done(await getReleased(ctx, requireCaller(req), type, req.params.id)),
    );
    app.post(
      `/${seg}/copy`,
      {
        schema: {
          tags,
          summary: `Copy a released ${label} into a project space where the caller may create one${type === 'app' ? ' (references remapped: mapping, store origin, name; dry_run answers the plan)' : ''}`,
          body: StoreCopyBody,
          response: { 200: ok(StoreCopyAnswer) },
        },
      },
      async (req) => done(await copyItem(ctx, requireCaller(req), type, req.body)),
    );
    app.post(
      `/${seg}/publish`,
      {
        schema: {
          tags,
          summary: `Publish (or re-submit) a ${label} of the X-Workspace-Id space: a snapshot awaiting release${type === 'app' ? ' (the app’s store distribution; the space owner only)' : ' (owner, admin)'}`,
          headers,
          body: StorePublishBody,
          response: { 200: ok(StoreSubmission) },
        },
      },
      async (req) => done(await publish(ctx, scopeOf(req), type, req.body)),
    );
  }

  // The plugin store: every user of the tenant browses it; publishing and installing are a super
  // admin's, under /admin/store/plugins/publish and /admin/plugins/install (source: store).
  const pluginTags = ['console: plugin store'];
  app.get(
    '/plugins',
    { schema: { tags: pluginTags, summary: 'Released plugins of the tenant: search (name, description, tags), tag filter, newest or most installed first', querystring: StoreListQuery, response: { 200: ok(StoreListAnswer) } } },
    async (req) => done(await listReleased(ctx, requireCaller(req), 'plugin', req.query)),
  );
  app.get(
    '/plugins/:id',
    { schema: { tags: pluginTags, summary: "One released plugin: its kinds, tools and versions (another tenant's, or one not released: VALIDATION-1000)", params: StoreItemParams, response: { 200: ok(StoreItemDetail) } } },
    async (req) => done(await getReleased(ctx, requireCaller(req), 'plugin', req.params.id)),
  );

  app.get(
    '/datasets/:id/document/:document_id/segments',
    { schema: { tags: ['console: knowledge base store'], summary: 'Segments of one document of a released knowledge base, in order', params: StoreSegmentParams, querystring: StoreSegmentQuery, response: { 200: ok(StoreSegmentPage) } } },
    async (req) => done(await snapshotSegments(ctx, requireCaller(req), req.params.id, req.params.document_id, req.query)),
  );

  app.post(
    '/tools/authorization',
    {
      schema: {
        tags: ['console: tool store'],
        summary: 'Give a tool copied from the store a credential of its space: the tool and the functions that had an auth take the source’s auth shape with it (owner, admin)',
        headers,
        body: StoreToolAuthorizationBody,
        response: { 200: ok(ToolDetail) },
      },
    },
    async (req) => done(await authorizeTool(ctx, scopeOf(req), req.body)),
  );

  app.get(
    '/submission',
    { schema: { tags: ['console: stores'], summary: "A resource's store submission (state, reason) as its space's members see it; null when never published", headers, querystring: StoreSubmissionQuery, response: { 200: ok(StoreSubmission) } } },
    async (req) => done(await submission(ctx, scopeOf(req), req.query.type, req.query.source_id)),
  );
};

const DatasetOnly = z.object({ dataset_id: z.string().max(64).describe('Knowledge base id') });
const ToolOnly = z.object({ tool_id: z.string().max(64).describe('Tool id') });
const PublishExtras = StorePublishBody.pick({ tags: true, description: true }).strict();

/**
 * The publishing calls on the resources themselves (spec 7.5: datasets "publish", prompts "POST
 * publish", tools "distributions"): the same as POST /store/{type}/publish, where the resource's page is.
 */
export const storeResourceRoutes = (ctx: ServerContext): FastifyPluginAsyncZod => async (app) => {
  app.post(
    '/datasets/:dataset_id/publish',
    { schema: { tags: ['console: datasets'], summary: 'Publish the knowledge base to the store: documents, segments and vectors as they are now, awaiting release (owner, admin)', headers, params: DatasetOnly, body: PublishExtras.optional(), response: { 200: ok(StoreSubmission) } } },
    async (req) => done(await publish(ctx, scopeOf(req), 'dataset', { id: req.params.dataset_id, ...req.body })),
  );
  app.post(
    '/prompts/publish',
    { schema: { tags: ['console: prompts'], summary: 'Publish the prompt to the store: its content and variables as they are now, awaiting release (owner, admin)', headers, body: StorePublishBody.omit({ version_id: true }), response: { 200: ok(StoreSubmission) } } },
    async (req) => done(await publish(ctx, scopeOf(req), 'prompt', req.body)),
  );
  app.get(
    '/tools/:tool_id/distributions',
    { schema: { tags: ['console: tools'], summary: "The tool's store distribution: its submission's state and reason (null: never published to the store)", headers, params: ToolOnly, response: { 200: ok(StoreSubmission) } } },
    async (req) => done(await submission(ctx, scopeOf(req), 'tool', req.params.tool_id)),
  );
  app.post(
    '/tools/:tool_id/distributions',
    { schema: { tags: ['console: tools'], summary: 'Distribute the tool’s latest published version to the tool store, without credentials or secrets (owner, admin)', headers, params: ToolOnly, body: PublishExtras.optional(), response: { 200: ok(StoreSubmission) } } },
    async (req) => done(await publish(ctx, scopeOf(req), 'tool', { id: req.params.tool_id, ...req.body })),
  );
};
