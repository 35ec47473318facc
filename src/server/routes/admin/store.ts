import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../../../schemas/common';
import { StoreItem, StorePluginPublishBody } from '../../../../schemas/store';
import { AdminStoreDetail, AdminStoreList, AdminStoreListQuery, AdminStoreParams, StoreRejectBody, StoreReviewBody, StoreSegmentPage, StoreSegmentParams, StoreSegmentQuery } from '../../../../schemas/store';
import type { ServerContext } from '../../context';
import { requirePermission } from '../../security/system-permissions';
import { adminList, segmentsOf } from '../../store/items';
import { adminDetail, managedRow, review } from '../../store/review';
import { publishPlugin } from '../../store/plugins';

const tags = ['admin: store'];
const done = <T>(data: T) => ({ code: 0 as const, msg: 'success', data });

/**
 * The store manager (spec /operation/system/store and store/{type}/{id}): a super admin for every
 * tenant, a tenant admin for their own (another tenant's item: VALIDATION-1000). Lists submissions by
 * type and state, reads one with its snapshot, and releases it, rejects it with a reason, or takes a
 * released one offline. A wrong state answers 409 STORE-1000 with the state it is in.
 */
export const adminStoreRoutes = (ctx: ServerContext): FastifyPluginAsyncZod => async (app) => {
  app.get('/', { schema: { tags, summary: 'Store items of every state (awaiting release first to review), by type, state and keyword', querystring: AdminStoreListQuery, response: { 200: ok(AdminStoreList) } } }, async (req) =>
    done(await adminList(ctx, requirePermission(req, 'store.review'), req.query)),
  );
  app.post(
    '/plugins/publish',
    {
      schema: {
        tags,
        summary: "Publish an installed plugin package to the caller's tenant's plugin store, its bytes kept with the listing: awaiting release (super admin)",
        body: StorePluginPublishBody,
        response: { 200: ok(StoreItem) },
      },
    },
    async (req) => done(await publishPlugin(ctx, requirePermission(req, 'store.publishPlugin'), req.body)),
  );
  app.get('/:type/:id', { schema: { tags, summary: 'One store item of any state with its snapshot', params: AdminStoreParams, response: { 200: ok(AdminStoreDetail) } } }, async (req) =>
    done(await adminDetail(ctx, requirePermission(req, 'store.review'), req.params.type, req.params.id)),
  );
  app.get(
    '/dataset/:id/document/:document_id/segments',
    { schema: { tags, summary: "Segments of one document of a knowledge base's snapshot (any state)", params: StoreSegmentParams, querystring: StoreSegmentQuery, response: { 200: ok(StoreSegmentPage) } } },
    async (req) => done(await segmentsOf(ctx, await managedRow(ctx, requirePermission(req, 'store.review'), 'dataset', req.params.id), req.params.document_id, req.query)),
  );
  app.post(
    '/:type/:id/release',
    { schema: { tags, summary: 'Release an item awaiting release: it is listed in its tenant’s store', params: AdminStoreParams, response: { 200: ok(AdminStoreDetail) } } },
    async (req) => done(await review(ctx, requirePermission(req, 'store.review'), req.params.type, req.params.id, 'release', '')),
  );
  app.post(
    '/:type/:id/reject',
    { schema: { tags, summary: 'Reject an item awaiting release, with the reason its publisher sees', params: AdminStoreParams, body: StoreRejectBody, response: { 200: ok(AdminStoreDetail) } } },
    async (req) => done(await review(ctx, requirePermission(req, 'store.review'), req.params.type, req.params.id, 'reject', req.body.reason)),
  );
  app.post(
    '/:type/:id/offline',
    { schema: { tags, summary: 'Take a released item offline (an optional reason for its publisher); copies made stay', params: AdminStoreParams, body: StoreReviewBody.optional(), response: { 200: ok(AdminStoreDetail) } } },
    async (req) => done(await review(ctx, requirePermission(req, 'store.review'), req.params.type, req.params.id, 'offline', req.body?.reason ?? '')),
  );
};
