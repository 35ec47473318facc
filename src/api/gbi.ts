/** CONSOLE gbi group (issue 30): data sources of a project space and the caller's question sessions. */
import { z } from 'zod';
import {
  GbiAskBody,
  GbiDatabaseSourceBody,
  GbiFilePreview,
  GbiFileSourceBody,
  GbiMessage,
  GbiSession,
  GbiSessionCreateBody,
  GbiSource,
  GbiSourceDetail,
  GbiSourceUpdateBody,
  GbiTableRows,
} from '../../schemas/gbi';
import { call, type Endpoint, type RequestOptions } from './request';

type Opts = Omit<RequestOptions, 'responseType' | 'schema'>;

const base = '/api/v1/console/gbi';
export const gbiEndpoints = {
  sources: { method: 'GET', url: `${base}/sources`, name: 'gbi.sources' },
  source: { method: 'GET', url: `${base}/sources/:source_id`, name: 'gbi.source' },
  addDatabase: { method: 'POST', url: `${base}/sources/database`, name: 'gbi.addDatabase' },
  previewFile: { method: 'POST', url: `${base}/sources/file/preview`, name: 'gbi.previewFile' },
  addFile: { method: 'POST', url: `${base}/sources/file`, name: 'gbi.addFile' },
  updateSource: { method: 'PUT', url: `${base}/sources/:source_id`, name: 'gbi.updateSource' },
  refreshSource: { method: 'POST', url: `${base}/sources/:source_id/refresh`, name: 'gbi.refreshSource' },
  deleteSource: { method: 'DELETE', url: `${base}/sources/:source_id`, name: 'gbi.deleteSource' },
  tableRows: { method: 'GET', url: `${base}/sources/:source_id/tables/:table_id/rows`, name: 'gbi.tableRows' },
  sessions: { method: 'GET', url: `${base}/sessions`, name: 'gbi.sessions' },
  createSession: { method: 'POST', url: `${base}/sessions`, name: 'gbi.createSession' },
  renameSession: { method: 'PUT', url: `${base}/sessions/:session_id`, name: 'gbi.renameSession' },
  deleteSession: { method: 'DELETE', url: `${base}/sessions/:session_id`, name: 'gbi.deleteSession' },
  messages: { method: 'GET', url: `${base}/sessions/:session_id/messages`, name: 'gbi.messages' },
  ask: { method: 'POST', url: `${base}/sessions/:session_id/ask`, name: 'gbi.ask' },
} as const satisfies Record<string, Endpoint>;

export const listGbiSources = (opts?: Opts) => call(z.array(GbiSource), gbiEndpoints.sources, {}, opts);
export const getGbiSource = (source_id: string, opts?: Opts) => call(GbiSourceDetail, gbiEndpoints.source, { source_id }, opts);
export const addGbiDatabase = (body: z.input<typeof GbiDatabaseSourceBody>, opts?: Opts) => call(GbiSourceDetail, gbiEndpoints.addDatabase, body, opts);
/** What an uploaded .csv/.xlsx holds (sheets, header detected, types, first rows); nothing is saved. */
export const previewGbiFile = (file_id: string, opts?: Opts) => call(GbiFilePreview, gbiEndpoints.previewFile, { file_id }, opts);
export const addGbiFile = (body: z.input<typeof GbiFileSourceBody>, opts?: Opts) => call(GbiSourceDetail, gbiEndpoints.addFile, body, opts);
export const updateGbiSource = (source_id: string, body: z.input<typeof GbiSourceUpdateBody>, opts?: Opts) =>
  call(GbiSourceDetail, gbiEndpoints.updateSource, { source_id, ...body }, opts);
/** Re-reads the source's tables, columns and samples, keeping the business words of columns that stay. */
export const refreshGbiSource = (source_id: string, opts?: Opts) => call(GbiSourceDetail, gbiEndpoints.refreshSource, { source_id }, opts);
/** A table's first rows (1–1000, 100 by default) read through the guarded read-only path. */
export const getGbiTableRows = (source_id: string, table_id: string, limit?: number, opts?: Opts) =>
  call(GbiTableRows, gbiEndpoints.tableRows, { source_id, table_id, ...(limit ? { limit } : {}) }, opts);
export const deleteGbiSource = (source_id: string, opts?: Opts) => call(z.null(), gbiEndpoints.deleteSource, { source_id }, opts);

export const listGbiSessions = (opts?: Opts) => call(z.array(GbiSession), gbiEndpoints.sessions, {}, opts);
export const createGbiSession = (body: z.input<typeof GbiSessionCreateBody>, opts?: Opts) => call(GbiSession, gbiEndpoints.createSession, body, opts);
export const renameGbiSession = (session_id: string, name: string, opts?: Opts) => call(GbiSession, gbiEndpoints.renameSession, { session_id, name }, opts);
export const deleteGbiSession = (session_id: string, opts?: Opts) => call(z.null(), gbiEndpoints.deleteSession, { session_id }, opts);
export const listGbiMessages = (session_id: string, opts?: Opts) => call(z.array(GbiMessage), gbiEndpoints.messages, { session_id }, opts);
/** Asks a question in a session: the answer carries the SQL, the result, the chart and the written answer. */
export const askGbi = (session_id: string, body: z.input<typeof GbiAskBody>, opts?: Opts) => call(GbiMessage, gbiEndpoints.ask, { session_id, ...body }, opts);
