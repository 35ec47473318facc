/**
 * Knowledge bases (spec 3, 4, 5, 7.4 dataset tasks, 7.5 datasets and files, 9): the bodies and answers
 * of the knowledge routes, shared by the server (request/response validation) and the client
 * (src/api/datasets.ts parses answers with them; src/api/datasets-contract.ts re-exports this file).
 * Imports nothing but zod.
 */
import { z } from 'zod';

export const DATASET_NAME_MAX = 50;
export const DATASET_DESCRIPTION_MAX = 500;
export const SEGMENT_CONTENT_MAX = 4000;
export const QA_QUESTION_MAX = 500;
export const QA_ANSWER_MAX = 4000;
export const HIT_QUERY_MAX = 1000;

/** Spec 9: none, every day, 3, 7, 30 days. */
export const UPDATE_FREQUENCIES = ['none', '1', '3', '7', '30'] as const;
export type UpdateFrequency = (typeof UPDATE_FREQUENCIES)[number];
export const RETRIEVAL_MODES = ['vector', 'full_text', 'hybrid'] as const;
export type RetrievalMode = (typeof RETRIEVAL_MODES)[number];
/** Spec 4 processing states a task can be in. */
export const TASK_STATUSES = ['waiting', 'queued', 'parsing', 'segmenting', 'indexing', 'cancelling', 'cancelled', 'failed', 'completed'] as const;
/** Spec 9 task types. */
export const TASK_TYPES = ['normal', 'graphic', 'faq', 'index'] as const;

/** Operators of knowledge metadata conditions (retrieval also takes a few spelled-out aliases). */
export const METADATA_OPERATORS = ['is', 'is not', 'contains', 'not contains', 'start with', 'end with', 'empty', 'not empty', '=', '≠', '>', '<', '≥', '≤', 'before', 'after'] as const;
/** The knowledge graph's neighbours are only worth adding above this relevance cap (spec). */
export const MAX_GRAPH_MIN_RELEVANCE = 0.5;
export const KNOWLEDGE_TOP_K_MAX = 50;

export const MetadataCondition = z.object({
  name: z.string().max(100).default(''),
  operator: z.enum(METADATA_OPERATORS).default('is'),
  value: z.string().max(1000).default(''),
});
export type MetadataCondition = z.infer<typeof MetadataCondition>;
export const MetadataFilter = z.object({ logicalOperator: z.enum(['and', 'or']).default('and'), conditions: z.array(MetadataCondition).max(50) });
export type MetadataFilter = z.infer<typeof MetadataFilter>;

/**
 * One knowledge search, the one definition of it: the knowledge-retrieval node's config draws its
 * fields from it, an executor hands it to the SDK's `KnowledgeService`, and the server's retrieval
 * parses it (src/server/knowledge/runtime.ts) before it searches.
 */
export const KnowledgeQuery = z.object({
  datasetIds: z.array(z.string().max(64)).max(50),
  text: z.string(),
  topK: z.number().int().min(1).max(KNOWLEDGE_TOP_K_MAX).default(4),
  /** Results scoring below are dropped (after rerank when it is on). */
  scoreThreshold: z.number().min(0).max(1).optional(),
  mode: z.enum(RETRIEVAL_MODES).default('hybrid'),
  /** Hybrid: weight of the vector score (the keyword score gets the rest). */
  vectorWeight: z.number().min(0).max(1).optional(),
  rerank: z.object({ provider: z.string().max(100), model: z.string().max(200) }).optional(),
  metadataFilter: MetadataFilter.optional(),
  /** Add knowledge-graph neighbours above this relevance. */
  graphNeighbours: z.object({ minRelevance: z.number().min(0).max(MAX_GRAPH_MIN_RELEVANCE) }).optional(),
});
/** What an executor writes (defaults may be left out). */
export type KnowledgeQuery = z.input<typeof KnowledgeQuery>;

const Id = z.string();
const Time = z.string();
const paging = { page: z.coerce.number().int().min(1).default(1), page_size: z.coerce.number().int().min(1).max(1000).default(20) };

export const UploadedFile = z.object({ id: Id, name: z.string(), size: z.number(), mime_type: z.string() });
export type UploadedFile = z.infer<typeof UploadedFile>;
/** A stored file's description (GET /files/{id}, POST /files/batch): the upload's answer plus where it belongs. */
export const FileInfo = UploadedFile.extend({
  biz_type: z.string(),
  workspace_id: z.string().nullable(),
  created_at: z.string().describe('ISO 8601'),
});
export type FileInfo = z.infer<typeof FileInfo>;
/** POST /files/batch: up to 100 ids; the answer lists the readable ones in the order asked, once each. */
export const FileBatchIn = z.object({ file_ids: z.array(z.string().max(64)).min(1).max(100) });

export const Dataset = z.object({
  id: Id,
  workspace_id: Id,
  name: z.string(),
  description: z.string(),
  document_count: z.number(),
  size: z.number(),
  created_by: Id,
  created_by_name: z.string(),
  /** The relevance a graph neighbour needs in this base's hit tests (0…0.5; the default when unset is 0.3). */
  graph_min_relevance: z.number(),
  created_at: Time,
  updated_at: Time,
});
export type Dataset = z.infer<typeof Dataset>;
export const DatasetListQuery = z.object({ ...paging, keyword: z.string().max(64).optional() });
export const DatasetCreateBody = z.object({ name: z.string().trim().min(1).max(DATASET_NAME_MAX), description: z.string().max(DATASET_DESCRIPTION_MAX).default('') });
export const DatasetUpdateBody = DatasetCreateBody.extend({ graph_min_relevance: z.number().min(0).max(MAX_GRAPH_MIN_RELEVANCE) }).partial();
export const CheckNameResult = z.object({ exists: z.boolean() });

export const DatasetDocument = z.object({
  id: Id,
  dataset_id: Id,
  name: z.string(),
  file_type: z.string(),
  size: z.number(),
  source_url: z.string().nullable(),
  update_frequency: z.string(),
  upload_status: z.string(),
  status: z.string(),
  progress: z.number().nullable(),
  queue_position: z.number().nullable(),
  task_id: Id.nullable(),
  error: z.string().nullable(),
  segment_mode: z.string(),
  segment_count: z.number(),
  qa_count: z.number(),
  hit_count: z.number(),
  enabled: z.boolean(),
  graph_status: z.string(),
  /** Why the unit's last graph analysis failed (graph_status `failed`), else null. */
  graph_error: z.string().nullable(),
  created_at: Time,
  updated_at: Time,
});
export type DatasetDocument = z.infer<typeof DatasetDocument>;
export const DocumentListQuery = z.object({ ...paging, keyword: z.string().max(64).optional() });

export const ProcessRule = z.object({
  mode: z.enum(['general', 'parent_child']),
  max_length: z.number().int(),
  overlap: z.number().int(),
  parent_max_length: z.number().int().optional(),
  separators: z.array(z.string()),
  remove_extra_spaces: z.boolean(),
  remove_urls_emails: z.boolean(),
});
export const CreateDocumentsBody = z.object({
  file_ids: z.array(Id).default([]),
  url: z.string().optional(),
  /** The unit's name for a URL source. */
  name: z.string().trim().min(1).max(255).optional(),
  update_frequency: z.string().optional(),
  process_rule: ProcessRule,
  sheet: z.string().optional(),
  header_row: z.number().int().optional(),
});
export const SegmentationPreviewBody = z.object({ file_id: Id.optional(), url: z.string().optional(), process_rule: ProcessRule, sheet: z.string().optional(), header_row: z.number().int().optional() });
export const SegmentPreview = z.object({ content: z.string(), children: z.array(z.string()).optional() });
export type SegmentPreview = z.infer<typeof SegmentPreview>;
export const SegmentationPreviewResult = z.object({ segments: z.array(SegmentPreview), total: z.number() });
export const ExcelSheets = z.object({ sheets: z.array(z.string()) });
export const ExcelHeadersQuery = z.object({ file_id: Id, sheet: z.string().optional(), header_row: z.number().int().min(1) });
export const ExcelHeaders = z.object({ headers: z.array(z.string()) });

export const Segment = z.object({ id: Id, document_id: Id, position: z.number(), content: z.string(), enabled: z.boolean(), hit_count: z.number(), created_at: Time });
export type Segment = z.infer<typeof Segment>;
export const SegmentListQuery = z.object({ ...paging, keyword: z.string().max(64).optional() });
export const SegmentBody = z.object({ content: z.string().trim().min(1).max(SEGMENT_CONTENT_MAX) });
export const SegmentUpdateBody = z.object({ content: z.string().trim().min(1).max(SEGMENT_CONTENT_MAX).optional(), enabled: z.boolean().optional() });
export const QaPair = z.object({ id: Id, document_id: Id, question: z.string(), answer: z.string(), created_at: Time });
export type QaPair = z.infer<typeof QaPair>;
export const QaPairBody = z.object({ question: z.string().trim().min(1).max(QA_QUESTION_MAX), answer: z.string().trim().min(1).max(QA_ANSWER_MAX) });

export const HitTestBody = z.object({
  query: z.string().trim().min(1).max(HIT_QUERY_MAX),
  mode: z.enum(RETRIEVAL_MODES),
  top_k: z.number().int().min(1).max(20),
  score_threshold: z.number().min(0).max(1).optional(),
  rerank: z.boolean(),
  graph: z.boolean(),
  /** With `graph`: the neighbours' minimum relevance for this test (else the base's own). */
  graph_min_relevance: z.number().min(0).max(MAX_GRAPH_MIN_RELEVANCE).optional(),
});
export type HitTestBody = z.infer<typeof HitTestBody>;
export const HitResult = z.object({
  segment_id: Id,
  document_id: Id,
  document_name: z.string(),
  position: z.number(),
  content: z.string(),
  score: z.number(),
  source: z.enum(['vector', 'full_text', 'graph']),
});
export type HitResult = z.infer<typeof HitResult>;
export const HitTestResult = z.object({ query: z.string(), results: z.array(HitResult) });
export type HitTestResult = z.infer<typeof HitTestResult>;
export const HitHistory = z.object({
  id: Id,
  query: z.string(),
  mode: z.enum(RETRIEVAL_MODES),
  top_k: z.number(),
  score_threshold: z.number(),
  rerank: z.boolean(),
  graph: z.boolean(),
  result_count: z.number(),
  created_at: Time,
});
export type HitHistory = z.infer<typeof HitHistory>;
export const HitHistoryDetail = HitHistory.extend({ results: z.array(HitResult) });
export type HitHistoryDetail = z.infer<typeof HitHistoryDetail>;

export const GraphQueryBody = z.object({ query: z.string().trim().min(1) });
export const GraphRelation = z.object({ source: z.string(), relation: z.string(), target: z.string(), score: z.number() });
export const GraphQueryResult = z.object({ relations: z.array(GraphRelation) });
export type GraphQueryResult = z.infer<typeof GraphQueryResult>;
/** Where a unit's graph analysis waits in the queue (null: not queued). */
export const GraphQueuePosition = z.object({ position: z.number().int().nullable() });
/** A relation of a unit, once however many of its segments yield it (`count`: how many do). */
export const GraphReference = z.object({ source: z.string(), relation: z.string(), target: z.string(), count: z.number().int() });
export type GraphReference = z.infer<typeof GraphReference>;

export const TaskLog = z.object({ time: Time, level: z.enum(['info', 'warn', 'error']), message: z.string() });
export type TaskLog = z.infer<typeof TaskLog>;

export const AdminDatasetTask = z.object({
  id: Id,
  task_type: z.enum(TASK_TYPES),
  status: z.string(),
  progress: z.number().nullable(),
  queue_position: z.number().nullable(),
  tenant_name: z.string(),
  workspace_name: z.string(),
  dataset_name: z.string(),
  document_name: z.string(),
  created_at: Time,
});
export type AdminDatasetTask = z.infer<typeof AdminDatasetTask>;
export const AdminTaskListQuery = z.object({ ...paging, status: z.string().optional() });
/**
 * A unit's Q&A generation (its latest `faq` task: the tenant's default chat model writes Q&A pairs
 * from the unit's segments). Null before the first start.
 */
export const QaGeneration = z.object({
  task_id: Id,
  /** queued, running, cancelling, cancelled, failed, completed. */
  status: z.string(),
  /** 0…100 while running. */
  progress: z.number().nullable(),
  queue_position: z.number().nullable(),
  error: z.string().nullable(),
  created_at: Time,
  finished_at: Time.nullable(),
});
export type QaGeneration = z.infer<typeof QaGeneration>;


// ---- Server-side request shapes (the client builds these from the functions of src/api/datasets.ts) ----

/**
 * What an upload is for (7.5 files): knowledge files, debug-run files, icons, chat attachments, and
 * a character's idle clip (a short mp4 or webm; schemas/digital-human.ts CLIP_MAX_MB).
 */
export const FILE_BIZ_TYPES = ['dataset', 'debug', 'icon', 'chat', 'clip'] as const;
export const FileBizType = z.enum(FILE_BIZ_TYPES);
export type FileBizType = z.infer<typeof FileBizType>;
/** Icon uploads: image types only. */
export const ICON_FILE_TYPES = ['png', 'jpg', 'jpeg', 'bmp', 'gif', 'svg', 'webp'] as const;

export const FileParams = z.object({ file_id: z.string().describe('File id') });
export const DatasetParams = z.object({ dataset_id: z.string().describe('Knowledge base id') });
export const DocumentParams = DatasetParams.extend({ document_id: z.string().describe('Knowledge unit id') });
export const SegmentParams = DocumentParams.extend({ segment_id: z.string().describe('Segment id') });
export const QaParams = DocumentParams.extend({ qa_id: z.string().describe('Q&A pair id') });
export const TaskParams = DatasetParams.extend({ task_id: z.string().describe('Task id') });
export const AdminTaskParams = z.object({ task_id: z.string().describe('Task id') });

/** DatasetUpdateBody as the server reads it: a field left out stays as it is (no defaults). */
export const DatasetUpdateBodyIn = z.object({
  name: z.string().trim().min(1).max(DATASET_NAME_MAX).optional(),
  description: z.string().max(DATASET_DESCRIPTION_MAX).optional(),
  graph_min_relevance: z.number().min(0).max(MAX_GRAPH_MIN_RELEVANCE).optional(),
});
export const CheckNameBody = z.object({ name: z.string().trim().min(1).max(DATASET_NAME_MAX), exclude_id: z.string().optional() });
export const ToggleEnableBody = z.object({ enabled: z.boolean() });
export const ExcelSheetsQuery = z.object({ file_id: Id });
/** ExcelHeadersQuery as read from a query string (numbers arrive as text). */
export const ExcelHeadersQueryIn = z.object({ file_id: Id, sheet: z.string().optional(), header_row: z.coerce.number().int().min(1).default(1) });
/** The preview of a knowledge file that browsers cannot show (doc, docx, xls, xlsx): its text or first rows. */
export const FilePreview = z.object({
  name: z.string(),
  kind: z.enum(['text', 'table']),
  text: z.string().optional(),
  sheets: z.array(z.object({ name: z.string(), headers: z.array(z.string()), rows: z.array(z.array(z.string())), total_rows: z.number() })).optional(),
  truncated: z.boolean(),
});
export type FilePreview = z.infer<typeof FilePreview>;
