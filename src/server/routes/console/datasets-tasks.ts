import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../../../schemas/common';
import { DatasetDocument, DatasetParams, DocumentParams, SegmentParams } from '../../../../schemas/knowledge';
import {
  DatasetTask,
  GraphIndexDataBody,
  GraphIndexDataResult,
  SegmentIndex,
  SegmentIndexBatchBody,
  SegmentIndexBatchResult,
  SegmentIndexGenerateBody,
  SegmentIndexStatus,
  SegmentIndexUpdateBody,
  TaskBatchBody,
  TaskCreateBody,
} from '../../../../schemas/knowledge-tasks';
import type { ServerContext } from '../../context';
import * as indexes from '../../services/datasets-indexes';
import * as tasks from '../../services/datasets-tasks';
import { scopeOf } from '../../services/workspace-resources';

const tags = ['console: datasets'];
const headers = z.looseObject({ 'x-workspace-id': z.string().optional().describe('The project space (required; missing: VALIDATION-1008)') });
const done = <T>(data: T) => ({ code: 0 as const, msg: 'success', data });

/**
 * Issue 33's knowledge calls (spec 7.5 datasets): segment indexes (get, update, regenerate, generate,
 * status, batch create), tasks created as their own calls (create, batch), handle-graph-index-data,
 * and a URL unit's refresh now. Members read; owner, admin and ordinary members write.
 */
export const datasetTaskRoutes = (ctx: ServerContext): FastifyPluginAsyncZod => async (app) => {
  // ---- segment indexes
  const seg = '/:dataset_id/documents/:document_id/segments/:segment_id/indexes';
  app.get(
    seg,
    { schema: { tags, summary: "A segment's index entries (questions, summaries, keywords), oldest first", headers, params: SegmentParams, response: { 200: ok(z.array(SegmentIndex)) } } },
    async (req) => done(await indexes.listIndexes(ctx, scopeOf(req), req.params.dataset_id, req.params.document_id, req.params.segment_id)),
  );
  app.put(
    seg,
    {
      schema: {
        tags,
        summary: "Set a segment's index entries: kept by id (changed ones embedded again), added without id, removed when left out",
        headers,
        params: SegmentParams,
        body: SegmentIndexUpdateBody,
        response: { 200: ok(z.array(SegmentIndex)) },
      },
    },
    async (req) => done(await indexes.updateIndexes(ctx, scopeOf(req), req.params.dataset_id, req.params.document_id, req.params.segment_id, req.body)),
  );
  app.post(
    `${seg}/regenerate`,
    {
      schema: {
        tags,
        summary: "Generate a segment's entries of the types again now with the tenant's default chat model (its generated ones of those types replaced)",
        headers,
        params: SegmentParams,
        body: SegmentIndexGenerateBody,
        response: { 200: ok(z.array(SegmentIndex)) },
      },
    },
    async (req) => done(await indexes.regenerateIndexes(ctx, scopeOf(req), req.params.dataset_id, req.params.document_id, req.params.segment_id, req.body.types)),
  );
  const unit = '/:dataset_id/documents/:document_id/segment-indexes';
  app.post(
    `${unit}/generate`,
    {
      schema: {
        tags,
        summary: "Generate every segment's index entries of the types with the tenant's default chat model (an index task on the queue)",
        headers,
        params: DocumentParams,
        body: SegmentIndexGenerateBody,
        response: { 200: ok(SegmentIndexStatus) },
      },
    },
    async (req) => done(await indexes.generateUnitIndexes(ctx, scopeOf(req), req.params.dataset_id, req.params.document_id, req.body.types)),
  );
  app.get(
    `${unit}/status`,
    { schema: { tags, summary: "The unit's segment index generation and how many segments have entries", headers, params: DocumentParams, response: { 200: ok(SegmentIndexStatus) } } },
    async (req) => done(await indexes.indexStatus(ctx, scopeOf(req), req.params.dataset_id, req.params.document_id)),
  );
  app.post(
    `${unit}/batch`,
    {
      schema: {
        tags,
        summary: 'Add hand-written index entries to many segments of the unit (all checked before any is stored)',
        headers,
        params: DocumentParams,
        body: SegmentIndexBatchBody,
        response: { 200: ok(SegmentIndexBatchResult) },
      },
    },
    async (req) => done(await indexes.batchCreateIndexes(ctx, scopeOf(req), req.params.dataset_id, req.params.document_id, req.body)),
  );

  // ---- tasks
  app.post(
    '/:dataset_id/tasks',
    {
      schema: {
        tags,
        summary: 'Create a task for a unit (normal: process again, graphic: graph analysis, faq: Q&A pairs, index: segment index entries); one already on its way is answered',
        headers,
        params: DatasetParams,
        body: TaskCreateBody,
        response: { 200: ok(DatasetTask) },
      },
    },
    async (req) => done((await tasks.createTasks(ctx, scopeOf(req), req.params.dataset_id, [req.body]))[0]!),
  );
  app.post(
    '/:dataset_id/tasks/batch',
    { schema: { tags, summary: 'Create tasks for units (all checked first: one bad request creates none)', headers, params: DatasetParams, body: TaskBatchBody, response: { 200: ok(z.array(DatasetTask)) } } },
    async (req) => done(await tasks.createTasks(ctx, scopeOf(req), req.params.dataset_id, req.body.tasks)),
  );
  app.post(
    '/:dataset_id/handle-graph-index-data',
    {
      schema: {
        tags,
        summary: "Run the graph analysis of units again (the listed ones, or those whose graph is on, failed or was stopped); the others skipped with why",
        headers,
        params: DatasetParams,
        body: GraphIndexDataBody,
        response: { 200: ok(GraphIndexDataResult) },
      },
    },
    async (req) => done(await tasks.handleGraphIndexData(ctx, scopeOf(req), req.params.dataset_id, req.body.document_ids)),
  );
  app.post(
    '/:dataset_id/documents/:document_id/refresh',
    { schema: { tags, summary: 'Fetch a URL unit again now (KNOWLEDGE-1001 for other units, KNOWLEDGE-1000 while it is processed)', headers, params: DocumentParams, response: { 200: ok(DatasetDocument) } } },
    async (req) => done(await tasks.refreshNow(ctx, scopeOf(req), req.params.dataset_id, req.params.document_id)),
  );
};
