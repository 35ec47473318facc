/**
 * The seams between the parts of the knowledge pipeline: parsing (./parse), segmentation (./segment),
 * tokenising (./tokenize), embedding (./embed-builtin, ./embedder), the durable task queue (./queue)
 * and the task handlers (./ingest for `normal`, ./graph for `graphic`). Each part is written and
 * tested on its own against these types.
 */
import type { ServerContext } from '../context';
import type { datasetTasks } from '../db/schema';

/** A table read from a spreadsheet or CSV: its header row and the rows under it, cells as text. */
export interface ParsedSheet {
  name: string;
  headers: string[];
  rows: string[][];
}

/** What a parser gives: running text (pdf, doc, docx, txt, md, html, URL pages) or tables (xls, xlsx, csv). */
export type ParsedDoc = { kind: 'text'; text: string; title?: string } | { kind: 'table'; sheets: ParsedSheet[] };

/** Segmentation settings of a unit (spec 9 defaults: max 800, overlap 0). */
export interface ProcessRule {
  mode: 'general' | 'parent_child';
  max_length: number;
  overlap: number;
  /** parent_child: the parent's maximum length (the children use `max_length`). */
  parent_max_length?: number;
  separators: string[];
  remove_extra_spaces: boolean;
  remove_urls_emails: boolean;
}

/** One segment before it is stored: general mode has no children; parent-child mode gives each parent its children. */
export interface SegmentDraft {
  content: string;
  children?: string[];
  /** Table units: the row's cells by header. */
  metadata?: Record<string, unknown>;
}

/** Turns texts into vectors of one dimension, for one knowledge base. */
export interface Embedder {
  /** 'builtin' or 'provider/model'. */
  readonly id: string;
  readonly dim: number | null;
  embed(texts: string[], signal?: AbortSignal): Promise<number[][]>;
}

export type DatasetTaskRow = typeof datasetTasks.$inferSelect;

/** What a task handler gets while it works on one claimed task. */
export interface TaskJob {
  ctx: ServerContext;
  task: DatasetTaskRow;
  /** Aborted when the task is stopped (cancel_requested) or the server shuts down. */
  signal: AbortSignal;
  /** Records progress 0..1 on the task and its unit (throttled by the queue). */
  progress(fraction: number): Promise<void>;
  log(level: 'info' | 'warn' | 'error', message: string): Promise<void>;
}

/** Does the work of one task type; throws to fail the task (the message is shown to the user). */
export type TaskHandler = (job: TaskJob) => Promise<void>;
