/**
 * What the knowledge screens need from the server, behind a context so stories and tests can pass
 * an in-memory implementation (memory-knowledge-api.ts). The default is the real API
 * (src/api/datasets.ts, src/api/files.ts). Screens speak in their own terms (a document source, the
 * segmentation form); this layer turns them into the server's bodies.
 */
import { createContext, useContext } from 'react';
import type {
  AdminDatasetTask,
  Dataset,
  DatasetDocument,
  GraphQueryResult,
  GraphReference,
  HitHistory,
  HitHistoryDetail,
  HitTestBody,
  HitTestResult,
  QaGeneration,
  QaPair,
  Segment,
  SegmentPreview,
  TaskLog,
  UploadedFile,
} from '../../../api/datasets-contract';
import type { SegmentIndex, SegmentIndexStatus, SegmentIndexType } from '../../../../schemas/knowledge-tasks';
import * as ds from '../../../api/datasets';
import * as idx from '../../../api/dataset-indexes';
import { uploadFile } from '../../../api/files';
import { availableModels } from '../../../api/models';
import type { PagedAnswer } from '../../../kit/schema-table';
import { separatorsOf, type SegmentationForm } from './segmentation';
import { BIZ_TYPE } from './upload-rules';

export type ListQuery = { page: number; page_size: number; keyword?: string };

/** Where a new unit comes from: a stored file or a web page. */
export interface DocumentSource {
  key: string;
  name: string;
  file_id?: string;
  url?: string;
}

export interface TableChoice {
  sheet: string;
  header_row: number;
}

export interface KnowledgeApi {
  listDatasets(ws: string, q: ListQuery): Promise<PagedAnswer<Dataset>>;
  getDataset(ws: string, id: string): Promise<Dataset>;
  /** Whether another base of the space has this name. */
  checkName(ws: string, name: string, excludeId?: string): Promise<boolean>;
  createDataset(ws: string, body: { name: string; description: string }): Promise<Dataset>;
  updateDataset(ws: string, id: string, body: { name: string; description: string; graph_min_relevance?: number }): Promise<Dataset>;
  deleteDataset(ws: string, id: string): Promise<unknown>;

  listDocuments(ws: string, datasetId: string, q: ListQuery): Promise<PagedAnswer<DatasetDocument>>;
  getDocument(ws: string, datasetId: string, id: string): Promise<DatasetDocument>;
  deleteDocument(ws: string, datasetId: string, id: string): Promise<unknown>;
  toggleEnable(ws: string, datasetId: string, id: string, enabled: boolean): Promise<unknown>;
  /** Starts (true) or switches off (false) graph analysis of a unit. */
  toggleGraph(ws: string, datasetId: string, id: string, enabled: boolean): Promise<unknown>;
  /** Fetches a URL unit again now. */
  refreshNow(ws: string, datasetId: string, id: string): Promise<unknown>;
  stopTask(ws: string, datasetId: string, doc: DatasetDocument): Promise<unknown>;
  cancelQueue(ws: string, datasetId: string, doc: DatasetDocument): Promise<unknown>;
  taskLogs(ws: string, datasetId: string, doc: DatasetDocument): Promise<TaskLog[]>;

  uploadFile(file: File, opts: { onProgress: (p: number) => void; signal: AbortSignal }): Promise<UploadedFile>;
  excelSheets(ws: string, datasetId: string, fileId: string): Promise<string[]>;
  excelHeaders(ws: string, datasetId: string, fileId: string, sheet: string, headerRow: number): Promise<string[]>;
  previewSegments(ws: string, datasetId: string, p: { source: DocumentSource; settings: SegmentationForm; table?: TableChoice }): Promise<{ segments: SegmentPreview[]; total: number }>;
  createDocuments(ws: string, datasetId: string, p: { sources: DocumentSource[]; settings: SegmentationForm; table?: TableChoice; update_frequency?: string }): Promise<unknown>;

  listSegments(ws: string, datasetId: string, documentId: string, q: ListQuery): Promise<PagedAnswer<Segment>>;
  createSegment(ws: string, datasetId: string, documentId: string, body: { content: string }): Promise<Segment>;
  updateSegment(ws: string, datasetId: string, documentId: string, id: string, body: { content?: string; enabled?: boolean }): Promise<Segment>;
  /** Deletes a segment with its children, vectors, index entries and graph relations. */
  deleteSegment(ws: string, datasetId: string, documentId: string, id: string): Promise<unknown>;
  /** A segment's index entries (questions, summaries, keywords), oldest first. */
  segmentIndexes(ws: string, datasetId: string, documentId: string, segmentId: string): Promise<SegmentIndex[]>;
  /** Sets a segment's whole list of entries: kept by id, added without, removed when left out. */
  setSegmentIndexes(ws: string, datasetId: string, documentId: string, segmentId: string, entries: { id?: string; type: SegmentIndexType; content: string }[]): Promise<SegmentIndex[]>;
  /** The default chat model writes the segment's generated entries again (hand-written ones stay). */
  regenerateSegmentIndexes(ws: string, datasetId: string, documentId: string, segmentId: string, types: SegmentIndexType[]): Promise<SegmentIndex[]>;
  /** Queues the generation of every segment's entries of the unit. */
  generateUnitIndexes(ws: string, datasetId: string, documentId: string, types: SegmentIndexType[]): Promise<SegmentIndexStatus>;
  unitIndexStatus(ws: string, datasetId: string, documentId: string): Promise<SegmentIndexStatus>;
  listQa(ws: string, datasetId: string, documentId: string, q: ListQuery): Promise<PagedAnswer<QaPair>>;
  createQa(ws: string, datasetId: string, documentId: string, body: { question: string; answer: string }): Promise<QaPair>;
  updateQa(ws: string, datasetId: string, documentId: string, id: string, body: { question: string; answer: string }): Promise<QaPair>;
  deleteQa(ws: string, datasetId: string, documentId: string, id: string): Promise<unknown>;
  /** The unit's latest Q&A generation by the default chat model (null: never started). */
  qaGeneration(ws: string, datasetId: string, documentId: string): Promise<QaGeneration | null>;
  startQaGeneration(ws: string, datasetId: string, documentId: string): Promise<QaGeneration>;
  /** Whether a chat model is configured (Q&A generation needs one; issue 28). */
  hasChatModel(): Promise<boolean>;

  hitTest(ws: string, datasetId: string, body: HitTestBody): Promise<HitTestResult>;
  listHitHistory(ws: string, datasetId: string, q: ListQuery): Promise<PagedAnswer<HitHistory>>;
  getHitHistory(ws: string, datasetId: string, id: string): Promise<HitHistoryDetail>;
  deleteHitHistory(ws: string, datasetId: string, id: string): Promise<unknown>;
  graphQuery(ws: string, datasetId: string, query: string): Promise<GraphQueryResult>;
  graphReferences(ws: string, datasetId: string, documentId: string): Promise<GraphReference[]>;
  /** The place of a unit's graph analysis in the queue (null when not queued). */
  graphQueuePosition(ws: string, datasetId: string, documentId: string): Promise<number | null>;

  listAdminTasks(q: ListQuery & { status?: string }): Promise<PagedAnswer<AdminDatasetTask>>;
  stopAdminTask(taskId: string): Promise<unknown>;
  cancelAdminQueue(taskId: string): Promise<unknown>;
}

/** The server's segmentation rule from the form. */
export const processRuleOf = (f: SegmentationForm) => ({
  mode: f.mode,
  max_length: f.max_length,
  overlap: f.overlap,
  parent_max_length: f.mode === 'parent_child' ? f.parent_max_length : undefined,
  separators: separatorsOf(f),
  remove_extra_spaces: f.remove_extra_spaces,
  remove_urls_emails: f.remove_urls_emails,
});

const w = (workspaceId: string) => ({ workspaceId });
const silent = (workspaceId: string) => ({ workspaceId, reaction: 'silent' as const });

export const apiKnowledgeApi: KnowledgeApi = {
  listDatasets: (ws, q) => ds.listDatasets({ ...q, keyword: q.keyword || undefined }, w(ws)),
  // Silent: the pages load their knowledge base and unit as an id page's own record and tell the
  // user themselves (spec 6, one message); the breadcrumb's lookup says nothing.
  getDataset: (ws, id) => ds.getDataset(id, silent(ws)),
  checkName: (ws, name, excludeId) => ds.checkDatasetName(name, excludeId, silent(ws)).then((r) => r.exists),
  createDataset: (ws, body) => ds.createDataset(body, silent(ws)),
  updateDataset: (ws, id, body) => ds.updateDataset(id, body, silent(ws)),
  deleteDataset: (ws, id) => ds.deleteDataset(id, w(ws)),

  // Silent: both screens report a failure themselves (the unit list leaves a missing base to its own load).
  listDocuments: (ws, datasetId, q) => ds.listDocuments(datasetId, { ...q, keyword: q.keyword || undefined }, silent(ws)),
  getDocument: (ws, datasetId, id) => ds.getDocument(datasetId, id, silent(ws)),
  deleteDocument: (ws, datasetId, id) => ds.deleteDocument(datasetId, id, w(ws)),
  toggleEnable: (ws, datasetId, id, enabled) => ds.toggleEnable(datasetId, id, enabled, w(ws)),
  toggleGraph: (ws, datasetId, id, enabled) => ds.toggleGraph(datasetId, id, enabled, w(ws)),
  refreshNow: (ws, datasetId, id) => ds.refreshDocument(datasetId, id, w(ws)),
  stopTask: (ws, datasetId, doc) => ds.stopTask(datasetId, doc.task_id ?? '', w(ws)),
  cancelQueue: (ws, datasetId, doc) => ds.cancelQueuedTask(datasetId, doc.task_id ?? '', w(ws)),
  taskLogs: (ws, datasetId, doc) => ds.taskLogs(datasetId, doc.task_id ?? '', w(ws)),

  uploadFile: (file, opts) => uploadFile(file, BIZ_TYPE, { ...opts, reaction: 'silent' }),
  excelSheets: (ws, datasetId, fileId) => ds.excelSheets(datasetId, fileId, w(ws)).then((r) => r.sheets),
  excelHeaders: (ws, datasetId, fileId, sheet, header_row) => ds.excelHeaders(datasetId, { file_id: fileId, sheet: sheet || undefined, header_row }, w(ws)).then((r) => r.headers),
  previewSegments: (ws, datasetId, p) =>
    ds.segmentationPreview(datasetId, { file_id: p.source.file_id, url: p.source.url, process_rule: processRuleOf(p.settings), ...p.table }, silent(ws)),
  createDocuments: (ws, datasetId, p) =>
    ds.createDocuments(
      datasetId,
      {
        file_ids: p.sources.flatMap((x) => (x.file_id ? [x.file_id] : [])),
        url: p.sources.find((x) => x.url)?.url,
        name: p.sources.find((x) => x.url)?.name,
        update_frequency: p.update_frequency,
        process_rule: processRuleOf(p.settings),
        ...p.table,
      },
      w(ws),
    ),

  listSegments: (ws, datasetId, documentId, q) => ds.listSegments(datasetId, documentId, { ...q, keyword: q.keyword || undefined }, w(ws)),
  createSegment: (ws, datasetId, documentId, body) => ds.createSegment(datasetId, documentId, body, silent(ws)),
  updateSegment: (ws, datasetId, documentId, id, body) => ds.updateSegment(datasetId, documentId, id, body, silent(ws)),
  deleteSegment: (ws, dataset_id, document_id, segment_id) => idx.deleteSegment({ dataset_id, document_id, segment_id }, w(ws)),
  segmentIndexes: (ws, dataset_id, document_id, segment_id) => idx.segmentIndexes({ dataset_id, document_id, segment_id }, w(ws)),
  setSegmentIndexes: (ws, dataset_id, document_id, segment_id, indexes) => idx.setSegmentIndexes({ dataset_id, document_id, segment_id }, { indexes }, w(ws)),
  regenerateSegmentIndexes: (ws, dataset_id, document_id, segment_id, types) => idx.regenerateSegmentIndexes({ dataset_id, document_id, segment_id }, types, w(ws)),
  generateUnitIndexes: (ws, dataset_id, document_id, types) => idx.generateUnitIndexes({ dataset_id, document_id }, types, w(ws)),
  unitIndexStatus: (ws, dataset_id, document_id) => idx.unitIndexStatus({ dataset_id, document_id }, w(ws)),
  listQa: (ws, datasetId, documentId, q) => ds.listQaPairs(datasetId, documentId, { ...q, keyword: q.keyword || undefined }, w(ws)),
  createQa: (ws, datasetId, documentId, body) => ds.createQaPair(datasetId, documentId, body, silent(ws)),
  updateQa: (ws, datasetId, documentId, id, body) => ds.updateQaPair(datasetId, documentId, id, body, silent(ws)),
  deleteQa: (ws, datasetId, documentId, id) => ds.deleteQaPair(datasetId, documentId, id, w(ws)),
  qaGeneration: (ws, datasetId, documentId) => ds.qaGeneration(datasetId, documentId, w(ws)),
  startQaGeneration: (ws, datasetId, documentId) => ds.startQaGeneration(datasetId, documentId, silent(ws)),
  hasChatModel: () => availableModels('llm', { reaction: 'silent' }).then((list) => list.some((p) => p.models.length > 0)),

  hitTest: (ws, datasetId, body) => ds.hitTest(datasetId, body, w(ws)),
  listHitHistory: (ws, datasetId, q) => ds.listHitHistory(datasetId, q, w(ws)),
  getHitHistory: (ws, datasetId, id) => ds.getHitHistory(datasetId, id, w(ws)),
  deleteHitHistory: (ws, datasetId, id) => ds.deleteHitHistory(datasetId, id, w(ws)),
  graphQuery: (ws, datasetId, query) => ds.graphQuery(datasetId, { query }, w(ws)),
  graphReferences: (ws, datasetId, documentId) => ds.graphReferences(datasetId, documentId, w(ws)),
  graphQueuePosition: (ws, datasetId, documentId) => ds.graphQueuePosition(datasetId, documentId, w(ws)).then((r) => r.position),

  listAdminTasks: (q) => ds.listAdminTasks(q),
  stopAdminTask: (id) => ds.stopAdminTask(id),
  cancelAdminQueue: (id) => ds.cancelAdminQueuedTask(id),
};

export const KnowledgeApiContext = createContext<KnowledgeApi>(apiKnowledgeApi);
export const useKnowledgeApi = () => useContext(KnowledgeApiContext);
