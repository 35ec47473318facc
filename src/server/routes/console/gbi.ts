import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../../../schemas/common';
import {
  GbiAskBody,
  GbiDatabaseSourceBody,
  GbiFilePreview,
  GbiFilePreviewBody,
  GbiFileSourceBody,
  GbiMessage,
  GbiSession,
  GbiSessionCreateBody,
  GbiSessionParams,
  GbiSessionUpdateBody,
  GbiSource,
  GbiSourceDetail,
  GbiSourceParams,
  GbiSourceUpdateBody,
  GbiTableRows,
  GbiTableRowsParams,
  GbiTableRowsQuery,
} from '../../../../schemas/gbi';
import type { ServerContext } from '../../context';
import { ask } from '../../gbi/ask';
import { refreshSource } from '../../gbi/refresh';
import * as sessions from '../../gbi/sessions';
import * as sources from '../../gbi/sources';
import { tableRows } from '../../gbi/table-rows';
import { scopeOf } from '../../services/workspace-resources';

const tags = ['console: gbi'];
const headers = z.looseObject({ 'x-workspace-id': z.string().optional().describe('The project space (required; missing: VALIDATION-1008)') });
const done = <T>(data: T) => ({ code: 0 as const, msg: 'success', data });

/**
 * GBI (issue 30) of the project space named by X-Workspace-Id: data settings (sources: any member
 * reads, owner and admin change) and asking (sessions are the caller's own).
 */
export const gbiRoutes = (ctx: ServerContext): FastifyPluginAsyncZod => async (app) => {
  app.get('/sources', { schema: { tags, summary: 'Data sources of the project space, newest first', headers, response: { 200: ok(z.array(GbiSource)) } } }, async (req) =>
    done(await sources.listSources(ctx, scopeOf(req))),
  );

  app.get(
    '/sources/:source_id',
    { schema: { tags, summary: 'A source with its tables and columns (business names, descriptions, sample values)', headers, params: GbiSourceParams, response: { 200: ok(GbiSourceDetail) } } },
    async (req) => done(await sources.getSource(ctx, scopeOf(req), req.params.source_id)),
  );

  app.get(
    '/sources/:source_id/tables/:table_id/rows',
    {
      schema: {
        tags,
        summary: "A table's first rows (any member): its described columns read through the same guarded read-only path as asking, at most `limit` rows",
        headers,
        params: GbiTableRowsParams,
        querystring: GbiTableRowsQuery,
        response: { 200: ok(GbiTableRows) },
      },
    },
    async (req) => done(await tableRows(ctx, scopeOf(req), req.params.source_id, req.params.table_id, req.query.limit)),
  );

  app.post(
    '/sources/database',
    { schema: { tags, summary: "Add one of the space's databases (owner, admin); its tables and sample values are read now", headers, body: GbiDatabaseSourceBody, response: { 200: ok(GbiSourceDetail) } } },
    async (req) => done(await sources.addDatabaseSource(ctx, scopeOf(req), req.body)),
  );

  app.post(
    '/sources/file/preview',
    { schema: { tags, summary: 'Preview an uploaded .csv, .xlsx or .xls: sheets, header detected, column types, first rows (owner, admin); nothing is saved', headers, body: GbiFilePreviewBody, response: { 200: ok(GbiFilePreview) } } },
    async (req) => done(await sources.previewFile(ctx, scopeOf(req), req.body.file_id)),
  );

  app.post(
    '/sources/file',
    { schema: { tags, summary: "Add an uploaded spreadsheet (owner, admin): each chosen sheet a table in the source's DuckDB file", headers, body: GbiFileSourceBody, response: { 200: ok(GbiSourceDetail) } } },
    async (req) => done(await sources.addFileSource(ctx, scopeOf(req), req.body)),
  );

  app.put(
    '/sources/:source_id',
    { schema: { tags, summary: 'Describe the data: names, descriptions, query limit (owner, admin)', headers, params: GbiSourceParams, body: GbiSourceUpdateBody, response: { 200: ok(GbiSourceDetail) } } },
    async (req) => done(await sources.updateSource(ctx, scopeOf(req), req.params.source_id, req.body)),
  );

  app.post(
    '/sources/:source_id/refresh',
    {
      schema: {
        tags,
        summary: 'Re-read the tables, columns and sample values (owner, admin); business names and descriptions of columns that still exist are kept',
        headers,
        params: GbiSourceParams,
        response: { 200: ok(GbiSourceDetail) },
      },
    },
    async (req) => done(await refreshSource(ctx, scopeOf(req), req.params.source_id)),
  );

  app.delete(
    '/sources/:source_id',
    { schema: { tags, summary: 'Delete a source and its spreadsheet data (owner, admin)', headers, params: GbiSourceParams, response: { 200: ok(z.null()) } } },
    async (req) => {
      await sources.deleteSource(ctx, scopeOf(req), req.params.source_id);
      return done(null);
    },
  );

  app.get('/sessions', { schema: { tags, summary: "The caller's sessions, most recent first", headers, response: { 200: ok(z.array(GbiSession)) } } }, async (req) =>
    done(await sessions.listSessions(ctx, scopeOf(req))),
  );

  app.post('/sessions', { schema: { tags, summary: 'Start a session', headers, body: GbiSessionCreateBody, response: { 200: ok(GbiSession) } } }, async (req) =>
    done(await sessions.createSession(ctx, scopeOf(req), req.body)),
  );

  app.put(
    '/sessions/:session_id',
    { schema: { tags, summary: 'Rename one of your sessions', headers, params: GbiSessionParams, body: GbiSessionUpdateBody, response: { 200: ok(GbiSession) } } },
    async (req) => done(await sessions.renameSession(ctx, scopeOf(req), req.params.session_id, req.body.name)),
  );

  app.delete(
    '/sessions/:session_id',
    { schema: { tags, summary: 'Delete one of your sessions and its messages', headers, params: GbiSessionParams, response: { 200: ok(z.null()) } } },
    async (req) => {
      await sessions.deleteSession(ctx, scopeOf(req), req.params.session_id);
      return done(null);
    },
  );

  app.get(
    '/sessions/:session_id/messages',
    { schema: { tags, summary: 'The questions of one of your sessions, oldest first', headers, params: GbiSessionParams, response: { 200: ok(z.array(GbiMessage)) } } },
    async (req) => done(await sessions.listMessages(ctx, scopeOf(req), req.params.session_id)),
  );

  app.post(
    '/sessions/:session_id/ask',
    {
      schema: {
        tags,
        summary: 'Ask a question: the model writes SQL, checked and run read-only; the result, a chart and a written answer (refused or failed SQL says so in the message)',
        headers,
        params: GbiSessionParams,
        body: GbiAskBody,
        response: { 200: ok(GbiMessage) },
      },
    },
    async (req) => done(await ask(ctx, scopeOf(req), req.params.session_id, req.body)),
  );
};
