import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok, page } from '../../../../schemas/common';
import {
  DatasetParams,
  DocumentParams,
  GraphQueryBody,
  GraphQueryResult,
  GraphQueuePosition,
  GraphReference,
  HitHistory,
  HitHistoryDetail,
  HitTestBody,
  HitTestResult,
  ToggleEnableBody,
} from '../../../../schemas/knowledge';
import type { ServerContext } from '../../context';
import * as hits from '../../knowledge/hits';
import { scopeOf } from '../../services/workspace-resources';

const tags = ['console: datasets'];
const headers = z.looseObject({ 'x-workspace-id': z.string().optional().describe('The project space (required; missing: VALIDATION-1008)') });
const done = <T>(data: T) => ({ code: 0 as const, msg: 'success', data });
const nothing = { 200: ok(z.null()) };
const HitHistoryQuery = z.object({ page: z.coerce.number().int().min(1).default(1), page_size: z.coerce.number().int().min(1).max(100).default(20) });
const HitResultParams = DatasetParams.extend({ result_id: z.string().describe('Hit test record id') });

/**
 * Search side of the knowledge bases (spec 5, 7.5 datasets): hit tests and their history, the
 * knowledge graph (query, a unit's relations, its analysis queue place, turning it on or off).
 * Members read and run hit tests; owner, admin and ordinary members delete history and toggle graphs.
 */
export const datasetSearchRoutes = (ctx: ServerContext): FastifyPluginAsyncZod => async (app) => {
  app.post(
    '/:dataset_id/hit-test',
    {
      schema: {
        tags,
        summary: 'Retrieve from the knowledge base with the given settings; recorded in its hit history and counted on the hits',
        headers,
        params: DatasetParams,
        body: HitTestBody,
        response: { 200: ok(HitTestResult) },
      },
    },
    async (req) => done(await hits.hitTest(ctx, scopeOf(req), req.params.dataset_id, req.body)),
  );
  app.get(
    '/:dataset_id/search-hit-results',
    { schema: { tags, summary: 'Hit test history, newest first', headers, params: DatasetParams, querystring: HitHistoryQuery, response: { 200: ok(page(HitHistory)) } } },
    async (req) => done(await hits.listHitHistory(ctx, scopeOf(req), req.params.dataset_id, req.query)),
  );
  app.get(
    '/:dataset_id/search-hit-results/:result_id',
    { schema: { tags, summary: 'One hit test with its results', headers, params: HitResultParams, response: { 200: ok(HitHistoryDetail) } } },
    async (req) => done(await hits.getHitHistory(ctx, scopeOf(req), req.params.dataset_id, req.params.result_id)),
  );
  app.delete(
    '/:dataset_id/search-hit-results/:result_id',
    { schema: { tags, summary: 'Delete a hit test record', headers, params: HitResultParams, response: nothing } },
    async (req) => {
      await hits.deleteHitHistory(ctx, scopeOf(req), req.params.dataset_id, req.params.result_id);
      return done(null);
    },
  );
  app.post(
    '/:dataset_id/graph-query',
    { schema: { tags, summary: 'Relations of the knowledge graph around the entities a query names, best first', headers, params: DatasetParams, body: GraphQueryBody, response: { 200: ok(GraphQueryResult) } } },
    async (req) => done(await hits.graphQuery(ctx, scopeOf(req), req.params.dataset_id, req.body.query)),
  );
  app.get(
    '/:dataset_id/documents/:document_id/graph-references',
    { schema: { tags, summary: 'The relations extracted from a unit', headers, params: DocumentParams, response: { 200: ok(z.array(GraphReference)) } } },
    async (req) => done(await hits.graphReferences(ctx, scopeOf(req), req.params.dataset_id, req.params.document_id)),
  );
  app.get(
    '/:dataset_id/documents/:document_id/graph-queue-position',
    { schema: { tags, summary: "Where the unit's graph analysis waits in the queue (null: not queued)", headers, params: DocumentParams, response: { 200: ok(GraphQueuePosition) } } },
    async (req) => done(await hits.graphQueuePosition(ctx, scopeOf(req), req.params.dataset_id, req.params.document_id)),
  );
  app.post(
    '/:dataset_id/documents/:document_id/toggle-graph',
    {
      schema: {
        tags,
        summary: "Turn a unit's graph analysis on (queued; its vector analysis must have completed) or off (relations removed)",
        headers,
        params: DocumentParams,
        body: ToggleEnableBody,
        response: nothing,
      },
    },
    async (req) => {
      await hits.toggleGraph(ctx, scopeOf(req), req.params.dataset_id, req.params.document_id, req.body.enabled);
      return done(null);
    },
  );
};
