/**
 * CONSOLE datasets group (spec 7.5 "datasets") and ADMIN dataset tasks (7.4): knowledge bases, their
 * documents (units) with status and progress, segmentation preview, Excel sheets and headers,
 * segments, Q&A pairs, tasks, hit tests and their history, the knowledge graph. Answers are parsed
 * with the schemas of schemas/knowledge.ts.
 */
import { z } from 'zod';
import { page } from '../../schemas/common';
import {
  AdminDatasetTask,
  AdminTaskListQuery,
  CheckNameResult,
  CreateDocumentsBody,
  Dataset,
  DatasetCreateBody,
  DatasetDocument,
  DatasetListQuery,
  DatasetUpdateBody,
  DocumentListQuery,
  ExcelHeaders,
  ExcelHeadersQuery,
  ExcelSheets,
  GraphQueryBody,
  GraphQueryResult,
  GraphQueuePosition,
  GraphReference,
  HitHistory,
  HitHistoryDetail,
  HitTestBody,
  HitTestResult,
  QaGeneration,
  QaPair,
  QaPairBody,
  TaskLog,
  Segment,
  SegmentBody,
  SegmentListQuery,
  SegmentationPreviewBody,
  SegmentationPreviewResult,
  SegmentUpdateBody,
} from './datasets-contract';
import { call, type Endpoint, type RequestOptions } from './request';

type Opts = Omit<RequestOptions, 'responseType' | 'schema'>;
type In<S extends z.ZodType> = z.input<S>;

const base = '/api/v1/console/datasets';
const one = `${base}/:dataset_id`;
const doc = `${one}/documents/:document_id`;
const admin = '/api/v1/admin/datasets/management';

export const datasetEndpoints = {
  list: { method: 'GET', url: base, name: 'datasets.list' },
  create: { method: 'POST', url: base, name: 'datasets.create' },
  checkNames: { method: 'POST', url: `${base}/check-names`, name: 'datasets.checkNames' },
  get: { method: 'GET', url: one, name: 'datasets.get' },
  update: { method: 'PUT', url: one, name: 'datasets.update' },
  remove: { method: 'DELETE', url: one, name: 'datasets.remove' },
  documents: { method: 'GET', url: `${one}/documents`, name: 'datasets.documents' },
  createDocuments: { method: 'POST', url: `${one}/documents`, name: 'datasets.createDocuments' },
  document: { method: 'GET', url: doc, name: 'datasets.document' },
  removeDocument: { method: 'DELETE', url: doc, name: 'datasets.removeDocument' },
  toggleEnable: { method: 'POST', url: `${doc}/toggle-enable`, name: 'datasets.toggleEnable' },
  toggleGraph: { method: 'POST', url: `${doc}/toggle-graph`, name: 'datasets.toggleGraph' },
  refreshDocument: { method: 'POST', url: `${doc}/refresh`, name: 'datasets.refreshDocument' },
  preview: { method: 'POST', url: `${one}/segmentation-preview`, name: 'datasets.segmentationPreview' },
  excelSheets: { method: 'GET', url: `${one}/excel/sheets`, name: 'datasets.excelSheets' },
  excelHeaders: { method: 'GET', url: `${one}/excel/headers`, name: 'datasets.excelHeaders' },
  segments: { method: 'GET', url: `${doc}/segments`, name: 'datasets.segments' },
  createSegment: { method: 'POST', url: `${doc}/segments`, name: 'datasets.createSegment' },
  updateSegment: { method: 'PUT', url: `${doc}/segments/:segment_id`, name: 'datasets.updateSegment' },
  qa: { method: 'GET', url: `${doc}/qa-pairs`, name: 'datasets.qa' },
  createQa: { method: 'POST', url: `${doc}/qa-pairs`, name: 'datasets.createQa' },
  updateQa: { method: 'PUT', url: `${doc}/qa-pairs/:qa_id`, name: 'datasets.updateQa' },
  removeQa: { method: 'DELETE', url: `${doc}/qa-pairs/:qa_id`, name: 'datasets.removeQa' },
  qaGeneration: { method: 'GET', url: `${doc}/qa-generation`, name: 'datasets.qaGeneration' },
  startQaGeneration: { method: 'POST', url: `${doc}/qa-generation`, name: 'datasets.startQaGeneration' },
  stopTask: { method: 'POST', url: `${one}/tasks/:task_id/stop`, name: 'datasets.stopTask' },
  cancelQueue: { method: 'POST', url: `${one}/tasks/:task_id/cancel-queue`, name: 'datasets.cancelQueue' },
  taskLogs: { method: 'GET', url: `${one}/tasks/:task_id/logs`, name: 'datasets.taskLogs' },
  hitTest: { method: 'POST', url: `${one}/hit-test`, name: 'datasets.hitTest' },
  hitHistory: { method: 'GET', url: `${one}/search-hit-results`, name: 'datasets.hitHistory' },
  hitHistoryOne: { method: 'GET', url: `${one}/search-hit-results/:result_id`, name: 'datasets.hitHistoryOne' },
  removeHitHistory: { method: 'DELETE', url: `${one}/search-hit-results/:result_id`, name: 'datasets.removeHitHistory' },
  graphQuery: { method: 'POST', url: `${one}/graph-query`, name: 'datasets.graphQuery' },
  graphReferences: { method: 'GET', url: `${doc}/graph-references`, name: 'datasets.graphReferences' },
  graphQueuePosition: { method: 'GET', url: `${doc}/graph-queue-position`, name: 'datasets.graphQueuePosition' },
  adminTasks: { method: 'GET', url: admin, name: 'admin.datasetTasks' },
  adminStop: { method: 'POST', url: `${admin}/task/:task_id/stop`, name: 'admin.datasetTaskStop' },
  adminCancel: { method: 'POST', url: `${admin}/task/:task_id/cancel-queue`, name: 'admin.datasetTaskCancelQueue' },
} as const satisfies Record<string, Endpoint>;

const ep = datasetEndpoints;
const ok = z.unknown();

export const listDatasets = (q: Partial<In<typeof DatasetListQuery>>, o?: Opts) => call(page(Dataset), ep.list, { ...q }, o);
export const getDataset = (dataset_id: string, o?: Opts) => call(Dataset, ep.get, { dataset_id }, o);
/** Whether the name is taken in the project space (by a base other than `exclude_id`). */
export const checkDatasetName = (name: string, exclude_id: string | undefined, o?: Opts) => call(CheckNameResult, ep.checkNames, { name, exclude_id }, o);
export const createDataset = (body: In<typeof DatasetCreateBody>, o?: Opts) => call(Dataset, ep.create, body, o);
export const updateDataset = (dataset_id: string, body: In<typeof DatasetUpdateBody>, o?: Opts) => call(Dataset, ep.update, { ...body, dataset_id }, o);
export const deleteDataset = (dataset_id: string, o?: Opts) => call(ok, ep.remove, { dataset_id }, o);

export const listDocuments = (dataset_id: string, q: Partial<In<typeof DocumentListQuery>>, o?: Opts) => call(page(DatasetDocument), ep.documents, { ...q, dataset_id }, o);
export const getDocument = (dataset_id: string, document_id: string, o?: Opts) => call(DatasetDocument, ep.document, { dataset_id, document_id }, o);
export const deleteDocument = (dataset_id: string, document_id: string, o?: Opts) => call(ok, ep.removeDocument, { dataset_id, document_id }, o);
/** Creates units from stored files or a URL, with their processing tasks. */
export const createDocuments = (dataset_id: string, body: In<typeof CreateDocumentsBody>, o?: Opts) => call(z.array(DatasetDocument), ep.createDocuments, { ...body, dataset_id }, o);
export const toggleEnable = (dataset_id: string, document_id: string, enabled: boolean, o?: Opts) => call(ok, ep.toggleEnable, { dataset_id, document_id, enabled }, o);
export const toggleGraph = (dataset_id: string, document_id: string, enabled: boolean, o?: Opts) => call(ok, ep.toggleGraph, { dataset_id, document_id, enabled }, o);
/** Fetches a URL unit again now (its processing task is queued). */
export const refreshDocument = (dataset_id: string, document_id: string, o?: Opts) => call(DatasetDocument, ep.refreshDocument, { dataset_id, document_id }, o);
export const stopTask = (dataset_id: string, task_id: string, o?: Opts) => call(ok, ep.stopTask, { dataset_id, task_id }, o);
export const cancelQueuedTask = (dataset_id: string, task_id: string, o?: Opts) => call(ok, ep.cancelQueue, { dataset_id, task_id }, o);

/** The log lines of a unit's processing task, oldest first. */
export const taskLogs = (dataset_id: string, task_id: string, o?: Opts) => call(z.array(TaskLog), ep.taskLogs, { dataset_id, task_id }, o);

export const segmentationPreview = (dataset_id: string, body: In<typeof SegmentationPreviewBody>, o?: Opts) => call(SegmentationPreviewResult, ep.preview, { ...body, dataset_id }, o);
export const excelSheets = (dataset_id: string, file_id: string, o?: Opts) => call(ExcelSheets, ep.excelSheets, { dataset_id, file_id }, o);
export const excelHeaders = (dataset_id: string, q: In<typeof ExcelHeadersQuery>, o?: Opts) => call(ExcelHeaders, ep.excelHeaders, { ...q, dataset_id }, o);

export const listSegments = (dataset_id: string, document_id: string, q: Partial<In<typeof SegmentListQuery>>, o?: Opts) => call(page(Segment), ep.segments, { ...q, dataset_id, document_id }, o);
export const createSegment = (dataset_id: string, document_id: string, body: In<typeof SegmentBody>, o?: Opts) => call(Segment, ep.createSegment, { ...body, dataset_id, document_id }, o);
export const updateSegment = (dataset_id: string, document_id: string, segment_id: string, body: In<typeof SegmentUpdateBody>, o?: Opts) =>
  call(Segment, ep.updateSegment, { ...body, dataset_id, document_id, segment_id }, o);
export const listQaPairs = (dataset_id: string, document_id: string, q: Partial<In<typeof SegmentListQuery>>, o?: Opts) => call(page(QaPair), ep.qa, { ...q, dataset_id, document_id }, o);
export const createQaPair = (dataset_id: string, document_id: string, body: In<typeof QaPairBody>, o?: Opts) => call(QaPair, ep.createQa, { ...body, dataset_id, document_id }, o);
export const updateQaPair = (dataset_id: string, document_id: string, qa_id: string, body: In<typeof QaPairBody>, o?: Opts) => call(QaPair, ep.updateQa, { ...body, dataset_id, document_id, qa_id }, o);
/** The unit's latest Q&A generation (null: never started). */
export const qaGeneration = (dataset_id: string, document_id: string, o?: Opts) => call(QaGeneration.nullable(), ep.qaGeneration, { dataset_id, document_id }, o);
/** Starts generating Q&A pairs from the unit's segments with the tenant's default chat model. */
export const startQaGeneration = (dataset_id: string, document_id: string, o?: Opts) => call(QaGeneration, ep.startQaGeneration, { dataset_id, document_id }, o);
export const deleteQaPair = (dataset_id: string, document_id: string, qa_id: string, o?: Opts) => call(ok, ep.removeQa, { dataset_id, document_id, qa_id }, o);

export const hitTest = (dataset_id: string, body: In<typeof HitTestBody>, o?: Opts) => call(HitTestResult, ep.hitTest, { ...body, dataset_id }, o);
export const listHitHistory = (dataset_id: string, q: { page?: number; page_size?: number }, o?: Opts) => call(page(HitHistory), ep.hitHistory, { ...q, dataset_id }, o);
export const getHitHistory = (dataset_id: string, result_id: string, o?: Opts) => call(HitHistoryDetail, ep.hitHistoryOne, { dataset_id, result_id }, o);
export const deleteHitHistory = (dataset_id: string, result_id: string, o?: Opts) => call(ok, ep.removeHitHistory, { dataset_id, result_id }, o);
export const graphQuery = (dataset_id: string, body: In<typeof GraphQueryBody>, o?: Opts) => call(GraphQueryResult, ep.graphQuery, { ...body, dataset_id }, o);
export const graphQueuePosition = (dataset_id: string, document_id: string, o?: Opts) => call(GraphQueuePosition, ep.graphQueuePosition, { dataset_id, document_id }, o);
export const graphReferences = (dataset_id: string, document_id: string, o?: Opts) => call(z.array(GraphReference), ep.graphReferences, { dataset_id, document_id }, o);

/** ADMIN: the knowledge tasks of the caller's tenant (all tenants for a super admin). */
export const listAdminTasks = (q: Partial<In<typeof AdminTaskListQuery>>, o?: Opts) => call(page(AdminDatasetTask), ep.adminTasks, { ...q }, o);
export const stopAdminTask = (task_id: string, o?: Opts) => call(ok, ep.adminStop, { task_id }, o);
export const cancelAdminQueuedTask = (task_id: string, o?: Opts) => call(ok, ep.adminCancel, { task_id }, o);
