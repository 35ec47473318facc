import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok, page } from '../../../../schemas/common';
import {
  CheckNameBody,
  CheckNameResult,
  CreateDocumentsBody,
  Dataset,
  DatasetCreateBody,
  DatasetDocument,
  DatasetListQuery,
  DatasetParams,
  DatasetUpdateBodyIn,
  DocumentListQuery,
  DocumentParams,
  ExcelHeaders,
  ExcelHeadersQueryIn,
  ExcelSheets,
  ExcelSheetsQuery,
  QaPair,
  QaGeneration,
  QaPairBody,
  QaParams,
  Segment,
  SegmentBody,
  SegmentationPreviewBody,
  SegmentationPreviewResult,
  SegmentListQuery,
  SegmentParams,
  SegmentUpdateBody,
  TaskLog,
  TaskParams,
  ToggleEnableBody,
} from '../../../../schemas/knowledge';
import type { ServerContext } from '../../context';
import * as svc from '../../services/datasets';
import * as content from '../../services/datasets-content';
import * as qaGen from '../../services/datasets-qa';
import { scopeOf } from '../../services/workspace-resources';

const tags = ['console: datasets'];
const headers = z.looseObject({ 'x-workspace-id': z.string().optional().describe('The project space (required; missing: VALIDATION-1008)') });
const done = <T>(data: T) => ({ code: 0 as const, msg: 'success', data });
const nothing = { 200: ok(z.null()) };

/**
 * Knowledge bases of the project space named by X-Workspace-Id (spec 3, 4, 5, 7.5 datasets, 9): bases,
 * units, segmentation preview, Excel sheets and headers, segments, Q&A pairs, tasks. Members read;
 * owner, admin and ordinary members edit. Hit tests and the graph are in ./datasets-search.ts.
 */
export const datasetRoutes = (ctx: ServerContext): FastifyPluginAsyncZod => async (app) => {
  app.get(
    '/',
    { schema: { tags, summary: 'Knowledge bases of the project space, recently changed first', headers, querystring: DatasetListQuery, response: { 200: ok(page(Dataset)) } } },
    async (req) => done(await svc.listDatasets(ctx, scopeOf(req), req.query)),
  );
  app.post(
    '/',
    { schema: { tags, summary: 'Create a knowledge base (name unique in the project space: VALIDATION-1001)', headers, body: DatasetCreateBody, response: { 200: ok(Dataset) } } },
    async (req) => done(await svc.createDataset(ctx, scopeOf(req), req.body)),
  );
  app.post(
    '/check-names',
    { schema: { tags, summary: 'Whether a knowledge base name is taken (by a base other than exclude_id)', headers, body: CheckNameBody, response: { 200: ok(CheckNameResult) } } },
    async (req) => done(await svc.checkDatasetName(ctx, scopeOf(req), req.body.name, req.body.exclude_id)),
  );
  app.get(
    '/:dataset_id',
    { schema: { tags, summary: 'One knowledge base with its unit count, size and creator', headers, params: DatasetParams, response: { 200: ok(Dataset) } } },
    async (req) => done(await svc.getDataset(ctx, scopeOf(req), req.params.dataset_id)),
  );
  app.put(
    '/:dataset_id',
    { schema: { tags, summary: 'Rename or describe a knowledge base', headers, params: DatasetParams, body: DatasetUpdateBodyIn, response: { 200: ok(Dataset) } } },
    async (req) => done(await svc.updateDataset(ctx, scopeOf(req), req.params.dataset_id, req.body)),
  );
  app.delete(
    '/:dataset_id',
    { schema: { tags, summary: 'Delete a knowledge base with its units, segments and tasks', headers, params: DatasetParams, response: nothing } },
    async (req) => {
      await svc.deleteDataset(ctx, scopeOf(req), req.params.dataset_id);
      return done(null);
    },
  );

  // ---- units
  app.get(
    '/:dataset_id/documents',
    { schema: { tags, summary: 'Units of a knowledge base, newest first, with status, progress, queue position and counts', headers, params: DatasetParams, querystring: DocumentListQuery, response: { 200: ok(page(DatasetDocument)) } } },
    async (req) => done(await svc.listDocuments(ctx, scopeOf(req), req.params.dataset_id, req.query)),
  );
  app.post(
    '/:dataset_id/documents',
    {
      schema: {
        tags,
        summary: 'Create units from uploaded knowledge files or one URL (name, update_frequency); each gets a queued processing task',
        headers,
        params: DatasetParams,
        body: CreateDocumentsBody,
        response: { 200: ok(z.array(DatasetDocument)) },
      },
    },
    async (req) => done(await svc.createDocuments(ctx, scopeOf(req), req.params.dataset_id, req.body)),
  );
  app.get(
    '/:dataset_id/documents/:document_id',
    { schema: { tags, summary: 'One unit', headers, params: DocumentParams, response: { 200: ok(DatasetDocument) } } },
    async (req) => done(await svc.getDocument(ctx, scopeOf(req), req.params.dataset_id, req.params.document_id)),
  );
  app.delete(
    '/:dataset_id/documents/:document_id',
    { schema: { tags, summary: 'Delete a unit (its running task stops)', headers, params: DocumentParams, response: nothing } },
    async (req) => {
      await svc.deleteDocument(ctx, scopeOf(req), req.params.dataset_id, req.params.document_id);
      return done(null);
    },
  );
  app.post(
    '/:dataset_id/documents/:document_id/toggle-enable',
    { schema: { tags, summary: 'Enable or disable a unit (disabled units are not retrieved)', headers, params: DocumentParams, body: ToggleEnableBody, response: nothing } },
    async (req) => {
      await svc.toggleDocument(ctx, scopeOf(req), req.params.dataset_id, req.params.document_id, req.body.enabled);
      return done(null);
    },
  );

  // ---- preview, tables
  app.post(
    '/:dataset_id/segmentation-preview',
    { schema: { tags, summary: 'Cut a file or URL by a process rule without storing: the first segments and the total', headers, params: DatasetParams, body: SegmentationPreviewBody, response: { 200: ok(SegmentationPreviewResult) } } },
    async (req) => done(await content.segmentationPreview(ctx, scopeOf(req), req.params.dataset_id, req.body)),
  );
  app.get(
    '/:dataset_id/excel/sheets',
    { schema: { tags, summary: 'Sheet names of an uploaded table file', headers, params: DatasetParams, querystring: ExcelSheetsQuery, response: { 200: ok(ExcelSheets) } } },
    async (req) => done(await content.sheetsOf(ctx, scopeOf(req), req.params.dataset_id, req.query.file_id)),
  );
  app.get(
    '/:dataset_id/excel/headers',
    { schema: { tags, summary: 'Column names in a row (1-based) of a sheet of an uploaded table file', headers, params: DatasetParams, querystring: ExcelHeadersQueryIn, response: { 200: ok(ExcelHeaders) } } },
    async (req) => done(await content.headersOf(ctx, scopeOf(req), req.params.dataset_id, req.query)),
  );

  // ---- segments
  app.get(
    '/:dataset_id/documents/:document_id/segments',
    { schema: { tags, summary: "A unit's segments by position (parents in parent-child mode)", headers, params: DocumentParams, querystring: SegmentListQuery, response: { 200: ok(page(Segment)) } } },
    async (req) => done(await content.listSegments(ctx, scopeOf(req), req.params.dataset_id, req.params.document_id, req.query)),
  );
  app.post(
    '/:dataset_id/documents/:document_id/segments',
    { schema: { tags, summary: 'Add a segment at the end of a unit (tokenised and embedded)', headers, params: DocumentParams, body: SegmentBody, response: { 200: ok(Segment) } } },
    async (req) => done(await content.createSegment(ctx, scopeOf(req), req.params.dataset_id, req.params.document_id, req.body.content)),
  );
  app.put(
    '/:dataset_id/documents/:document_id/segments/:segment_id',
    { schema: { tags, summary: "Change a segment's content (re-embedded) or enable/disable it", headers, params: SegmentParams, body: SegmentUpdateBody, response: { 200: ok(Segment) } } },
    async (req) =>
      done(await content.updateSegment(ctx, scopeOf(req), req.params.dataset_id, req.params.document_id, req.params.segment_id, req.body)),
  );

  app.delete(
    '/:dataset_id/documents/:document_id/segments/:segment_id',
    {
      schema: {
        tags,
        summary: 'Delete a segment (a parent with its children) with its vectors, index entries and the graph relations extracted from it',
        headers,
        params: SegmentParams,
        response: nothing,
      },
    },
    async (req) => {
      await content.deleteSegment(ctx, scopeOf(req), req.params.dataset_id, req.params.document_id, req.params.segment_id);
      return done(null);
    },
  );

  // ---- Q&A pairs
  app.get(
    '/:dataset_id/documents/:document_id/qa-pairs',
    { schema: { tags, summary: "A unit's Q&A pairs, newest first", headers, params: DocumentParams, querystring: SegmentListQuery, response: { 200: ok(page(QaPair)) } } },
    async (req) => done(await content.listQa(ctx, scopeOf(req), req.params.dataset_id, req.params.document_id, req.query)),
  );
  app.post(
    '/:dataset_id/documents/:document_id/qa-pairs',
    { schema: { tags, summary: 'Add a Q&A pair (embedded)', headers, params: DocumentParams, body: QaPairBody, response: { 200: ok(QaPair) } } },
    async (req) => done(await content.saveQa(ctx, scopeOf(req), req.params.dataset_id, req.params.document_id, req.body)),
  );
  app.get(
    '/:dataset_id/documents/:document_id/qa-generation',
    { schema: { tags, summary: "The unit's latest Q&A generation by the default chat model (null: never started)", headers, params: DocumentParams, response: { 200: ok(QaGeneration.nullable()) } } },
    async (req) => done(await qaGen.qaGeneration(ctx, scopeOf(req), req.params.dataset_id, req.params.document_id)),
  );
  app.post(
    '/:dataset_id/documents/:document_id/qa-generation',
    {
      schema: {
        tags,
        summary: "Generate Q&A pairs from the unit's segments with the tenant's default chat model (queued; the unit's vector analysis must have completed)",
        headers,
        params: DocumentParams,
        response: { 200: ok(QaGeneration) },
      },
    },
    async (req) => done(await qaGen.startQaGeneration(ctx, scopeOf(req), req.params.dataset_id, req.params.document_id)),
  );
  app.put(
    '/:dataset_id/documents/:document_id/qa-pairs/:qa_id',
    { schema: { tags, summary: 'Change a Q&A pair (embedded again)', headers, params: QaParams, body: QaPairBody, response: { 200: ok(QaPair) } } },
    async (req) => done(await content.saveQa(ctx, scopeOf(req), req.params.dataset_id, req.params.document_id, req.body, req.params.qa_id)),
  );
  app.delete(
    '/:dataset_id/documents/:document_id/qa-pairs/:qa_id',
    { schema: { tags, summary: 'Delete a Q&A pair', headers, params: QaParams, response: nothing } },
    async (req) => {
      await content.deleteQa(ctx, scopeOf(req), req.params.dataset_id, req.params.document_id, req.params.qa_id);
      return done(null);
    },
  );

  // ---- tasks
  app.post(
    '/:dataset_id/tasks/:task_id/stop',
    { schema: { tags, summary: 'Stop a task (a queued one leaves the queue; a running one ends cancelled)', headers, params: TaskParams, response: nothing } },
    async (req) => {
      await content.stopTask(ctx, scopeOf(req), req.params.dataset_id, req.params.task_id);
      return done(null);
    },
  );
  app.post(
    '/:dataset_id/tasks/:task_id/cancel-queue',
    { schema: { tags, summary: 'Take a queued task out of the queue', headers, params: TaskParams, response: nothing } },
    async (req) => {
      await content.cancelQueuedTask(ctx, scopeOf(req), req.params.dataset_id, req.params.task_id);
      return done(null);
    },
  );
  app.get(
    '/:dataset_id/tasks/:task_id/logs',
    { schema: { tags, summary: "A task's log lines, oldest first", headers, params: TaskParams, response: { 200: ok(z.array(TaskLog)) } } },
    async (req) => done(await content.taskLogs(ctx, scopeOf(req), req.params.dataset_id, req.params.task_id)),
  );
};
