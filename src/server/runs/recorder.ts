import { randomUUID } from 'node:crypto';
import type { RunEvent, TokenUsage } from '../../../schemas/run';
import type { RunResult } from '../../engine';
import type { Db } from '../db/client';
import { conversations, messages, nodeExecutions, runs } from '../db/schema';
import { insertRows, updateRow, type RawSql } from './raw-sql';
import { runWriterOf } from './run-writer';

export type NodeRow = typeof nodeExecutions.$inferInsert;

/** The statements that write a whole run at its end (its rows with their final values, and its node rows). */
export type WholeRun = (nodes: NodeRow[], result: RunResult, end: RunEnd) => RawSql[];

/** What a node's end changes in the row its start wrote (the rest of the row stays as written). */
const END_COLUMNS = ['status', 'outputs', 'inputs', 'handle', 'error', 'elapsedMs', 'promptTokens', 'completionTokens', 'totalTokens', 'retries', 'finishedAt'];

/** Node rows as one statement: a node's end after its start row was written updates that row. */
const nodeRows = (rows: NodeRow[]): RawSql =>
  insertRows(nodeExecutions, rows as Record<string, unknown>[], { onConflictDoUpdate: { target: ['runId', 'executionId'], set: END_COLUMNS } });

/** How long finished nodes wait to be written with the next ones (the trace of a running run lags by this much). */
const FLUSH_DELAY_MS = 100;

export const usageColumns = (u: TokenUsage | undefined) => ({
  promptTokens: u?.promptTokens ?? 0,
  completionTokens: u?.completionTokens ?? 0,
  totalTokens: u?.totalTokens ?? 0,
});

/** What the recorder writes when the run ends, besides the run row. */
export interface RunEnd {
  messageId?: string;
  conversationId?: string;
  /** The knowledge passages the answer used, stored with the message (portal chat). */
  citations?: Record<string, unknown>[];
}

/**
 * Persists one run from its events: a node execution row when a node starts (status `running`),
 * the same row updated when it finishes or fails, a row for a skipped node, then the run's totals,
 * the message and the conversation's variables when the run ends. A server that dies mid-run thus
 * leaves the finished nodes and the running one in the trace (the sweep, ./sweep.ts, ends them).
 *
 * Writes never hold the run up: events are handled synchronously and rows are written in the
 * background, in order, batched: rows wait up to FLUSH_DELAY_MS (a short run is written in one
 * insert at its end, and the database is left to the run's own queries, e.g. a model's credentials
 * on the way to the first token); whatever piles up while an insert runs goes in the next one. A
 * node that ends before its start row went out is written once, as it ended. A failed write is
 * reported to `onError` and the run goes on.
 */
export class RunRecorder {
  private readonly started = new Map<string, { seq: number; at: number }>();
  private pending: NodeRow[] = [];
  /** Where a node's row waits in `pending`, by execution id (its end replaces its start row there). */
  private pendingAt = new Map<string, number>();
  private writing: Promise<void> = Promise.resolve();
  private busy = false;
  private timer: NodeJS.Timeout | undefined;

  /** The run row could not be written: nothing else about the run can be. */
  private lost = false;
  /** Nothing was written before the run ended: it is written whole, at its end (`whole`). */
  private wholeMode = false;

  /**
   * `ready`: the write of the run row (node rows and the end wait for it); when it resolves to
   * `false` the row was not written because the run had already ended, and `whole` gives the
   * statements that write everything at once (batched with other runs: ./run-writer.ts).
   */
  constructor(
    private readonly db: Db,
    private readonly runId: string,
    private readonly onError: (e: unknown) => void,
    ready: Promise<unknown> = Promise.resolve(),
    private readonly whole?: WholeRun,
  ) {
    this.writing = ready.then(
      (wrote) => {
        if (wrote === false && whole) this.wholeMode = true;
      },
      (e) => {
        this.lost = true;
        onError(e);
      },
    );
  }

  /** Feed every run event here (the engine's `onEvent`). */
  onEvent = (e: RunEvent): void => {
    switch (e.type) {
      case 'node_started': {
        this.started.set(e.executionId, { seq: e.seq, at: e.at });
        const inner = e.scope.at(-1);
        this.queue({
          id: randomUUID(),
          runId: this.runId,
          executionId: e.executionId,
          seq: e.seq,
          nodeId: e.nodeId,
          kind: e.kind,
          title: e.title,
          parentId: e.parentId ?? null,
          parentExecutionId: inner?.executionId ?? null,
          itemIndex: inner?.index ?? null,
          scope: e.scope,
          status: 'running',
          inputs: e.inputs,
          startedAt: new Date(e.at),
        });
        return;
      }
      case 'node_finished':
      case 'node_failed': {
        const s = this.started.get(e.executionId);
        this.started.delete(e.executionId);
        const inner = e.scope.at(-1);
        this.queue({
          id: randomUUID(),
          runId: this.runId,
          executionId: e.executionId,
          seq: s?.seq ?? e.seq,
          nodeId: e.nodeId,
          kind: e.kind,
          title: e.title,
          parentId: e.parentId ?? null,
          parentExecutionId: inner?.executionId ?? null,
          itemIndex: inner?.index ?? null,
          scope: e.scope,
          status: e.status,
          inputs: e.inputs,
          outputs: e.type === 'node_finished' ? e.outputs : {},
          handle: e.type === 'node_finished' ? e.handle : null,
          error: e.error ?? null,
          elapsedMs: e.elapsedMs,
          ...usageColumns(e.type === 'node_finished' ? e.usage : undefined),
          retries: e.retries,
          startedAt: new Date(s?.at ?? e.at),
          finishedAt: new Date(e.at),
        });
        return;
      }
      case 'node_skipped': {
        const inner = e.scope.at(-1);
        this.queue({
          id: randomUUID(),
          runId: this.runId,
          executionId: `skipped-${e.seq}`,
          seq: e.seq,
          nodeId: e.nodeId,
          kind: e.kind,
          title: '',
          parentId: e.parentId ?? null,
          parentExecutionId: inner?.executionId ?? null,
          itemIndex: inner?.index ?? null,
          scope: e.scope,
          status: 'skipped',
          startedAt: new Date(e.at),
          finishedAt: new Date(e.at),
        });
        return;
      }
      default:
        return;
    }
  };

  private queue(row: NodeRow): void {
    const at = this.pendingAt.get(row.executionId);
    if (at !== undefined) {
      // Its start row has not gone out yet: keep its id, write the end instead.
      this.pending[at] = { ...row, id: this.pending[at].id };
      return;
    }
    this.pendingAt.set(row.executionId, this.pending.length);
    this.pending.push(row);
    if (!this.timer && !this.busy) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.kick();
      }, FLUSH_DELAY_MS);
    }
  }

  private kick(): void {
    if (this.busy || !this.pending.length) return;
    this.busy = true;
    this.writing = this.writing.then(() => this.drain());
  }

  private async drain(): Promise<void> {
    while (this.pending.length && !this.lost && !this.wholeMode) {
      const batch = this.pending;
      this.pending = [];
      this.pendingAt = new Map();
      try {
        // Through the run writer: the node rows of runs going on at once share a statement.
        await runWriterOf(this.db).write([nodeRows(batch)]);
      } catch (e) {
        this.onError(e);
      }
    }
    // A run written whole keeps its rows for its end.
    if (!this.wholeMode) {
      this.pending = [];
      this.pendingAt = new Map();
    }
    this.busy = false;
  }

  /**
   * Waits for the node rows being written, then writes the run's end: the node rows still waiting,
   * the run's totals, the message and the conversation's variables, as ONE statement (atomic, like
   * the transaction it replaces, in one round trip instead of five), shared with the other runs
   * ending at the same time (./run-writer.ts).
   */
  async finish(result: RunResult, end: RunEnd = {}): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.writing;
    if (this.lost) return;
    const nodes = this.pending;
    this.pending = [];
    this.pendingAt = new Map();
    let parts: RawSql[];
    if (this.wholeMode) parts = this.whole!(nodes, result, end);
    else {
      const finishedAt = new Date();
      const usage = usageColumns(result.usage);
      parts = nodes.length ? [nodeRows(nodes)] : [];
      parts.push(
        updateRow(
          runs,
          { status: result.status, outputs: result.outputs, answer: result.answer, error: result.error ?? null, ...usage, steps: result.steps, elapsedMs: result.elapsedMs, finishedAt },
          ['id', this.runId],
        ),
      );
      if (end.messageId) {
        parts.push(
          updateRow(
            messages,
            {
              answer: result.answer,
              status: result.status,
              error: result.error ?? null,
              ...usage,
              elapsedMs: result.elapsedMs,
              ...(end.citations ? { citations: end.citations } : {}),
              updatedAt: finishedAt,
            },
            ['id', end.messageId],
          ),
        );
      }
      if (end.conversationId) parts.push(updateRow(conversations, { variables: result.conversation, updatedAt: finishedAt }, ['id', end.conversationId]));
    }
    try {
      await runWriterOf(this.db).write(parts);
    } catch (e) {
      this.onError(e);
    }
  }
}
