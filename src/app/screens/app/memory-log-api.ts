/**
 * An in-memory {@link LogApi} for stories and tests: runs spread over the last year (period filters
 * apply), each with its node executions (an iteration among them), conversations whose messages point
 * at their runs, and the server's failures as ApiErrors.
 */
import { isChatMode, type FlowMode } from '../../../../schemas/flow';
import type { RunStatus } from '../../../../schemas/run';
import type { ConversationMessage, ConversationSummary, LogPeriod, NodeExecution, RunDetail, RunSource, RunSummary } from '../../../../schemas/run-api';
import { ApiError } from '../../../api/request';
import type { LogApi } from './log-api';

export interface MemoryLogOptions {
  runs?: number;
  conversations?: number;
  /** The clock the periods are measured from. */
  now?: number;
  latencyMs?: number;
  listFails?: boolean;
  /** The app's mode (default chatflow): a workflow's runs have inputs and outputs, no query or answer. */
  mode?: FlowMode;
}

export interface MemoryLogApi extends LogApi {
  appId: string;
  workspaceId: string;
  runs: RunDetail[];
  conversations: ConversationSummary[];
  calls: { method: string; args: unknown[] }[];
}

const APP = '0a000000-0000-4000-8000-0000000000a1';
const WS = '0c000000-0000-4000-8000-0000000000c1';
const USER = '0b000000-0000-4000-8000-0000000000b1';
const DAY = 86_400_000;
const PERIOD_DAYS: Record<LogPeriod, number | null> = { today: 0, '7d': 7, '30d': 30, '90d': 90, '180d': 180, all: null };
const STATUSES: RunStatus[] = ['succeeded', 'succeeded', 'failed', 'succeeded', 'stopped'];
/** Where run i came from (published runs name their version). */
const SOURCES: RunSource[] = ['draft', 'portal', 'draft', 'api', 'tool', 'portal', 'mcp'];
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
const uuid = (kind: string, n: number) => `${kind}000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
const usage = (t: number) => ({ promptTokens: Math.floor(t / 2), completionTokens: t - Math.floor(t / 2), totalTokens: t });

function executions(runId: number, at: string, failed: boolean): NodeExecution[] {
  let seq = 0;
  const row = (node_id: string, kind: string, extra: Partial<NodeExecution> = {}): NodeExecution => ({
    id: uuid('0e', runId * 100 + seq),
    execution_id: `${node_id}-${runId}-${seq}`,
    seq: seq++,
    node_id,
    kind,
    title: node_id,
    parent_id: null,
    parent_execution_id: null,
    index: null,
    scope: [],
    status: 'succeeded',
    inputs: {},
    outputs: {},
    handle: 'source',
    error: null,
    elapsed_ms: 5,
    usage: usage(0),
    retries: 0,
    started_at: at,
    finished_at: at,
    ...extra,
  });
  const iteration = row('iteration', 'iteration', { inputs: { items: ['a', 'b', 'c'] }, outputs: { output: ['A', 'B', 'C'] }, elapsed_ms: 60 });
  const rounds = [0, 1, 2].map((index) =>
    row('code', 'code', {
      parent_id: 'iteration',
      parent_execution_id: iteration.execution_id,
      index,
      scope: [{ containerId: 'iteration', executionId: iteration.execution_id, index }],
      inputs: { item: 'abc'[index] },
      outputs: { result: 'ABC'[index] },
      elapsed_ms: 12 + index,
    }),
  );
  return [
    row('start', 'start', { outputs: { query: `question ${runId}` }, elapsed_ms: 1 }),
    iteration,
    ...rounds,
    row('llm', 'llm', failed ? { status: 'failed', error: { code: 'MODEL-ERROR', message: 'The model did not answer' }, elapsed_ms: 2100 } : { outputs: { text: `answer ${runId}` }, usage: usage(120 + runId), elapsed_ms: 900 }),
    ...(failed ? [] : [row('answer', 'answer', { outputs: { answer: `answer ${runId}` }, elapsed_ms: 1 })]),
  ];
}

export function createMemoryLogApi(opts: MemoryLogOptions = {}): MemoryLogApi {
  const now = opts.now ?? Date.now();
  const mode = opts.mode ?? 'chatflow';
  const chat = isChatMode(mode);
  const calls: MemoryLogApi['calls'] = [];
  const conversations: ConversationSummary[] = Array.from({ length: opts.conversations ?? 4 }, (_, i) => ({
    id: uuid('0d', i + 1),
    name: `Conversation ${i + 1}`,
    message_count: 0,
    last_message_at: null,
    created_by: USER,
    created_by_name: 'Ada',
    created_at: new Date(now - i * 3 * DAY - 3_600_000).toISOString(),
  }));
  // Run i happened i*i/2 days ago: a few today, most within the months before.
  const runs: RunDetail[] = Array.from({ length: opts.runs ?? 12 }, (_, i) => {
    const status = STATUSES[i % STATUSES.length];
    const at = new Date(now - ((i * i) / 2) * DAY - 60_000 * (i + 1)).toISOString();
    const conv = conversations.length ? conversations[i % conversations.length] : undefined;
    const failed = status === 'failed';
    const source = SOURCES[i % SOURCES.length];
    const run: RunSummary = {
      id: uuid('0f', i + 1),
      app_id: APP,
      mode,
      source,
      version: source === 'draft' ? null : `v1.0.${i % 3}`,
      node_id: null,
      status,
      query: chat ? `question ${i + 1}` : '',
      inputs: chat ? { topic: 'demo' } : { topic: `topic ${i + 1}`, pages: i + 1 },
      outputs: chat || failed ? {} : { summary: `summary ${i + 1}` },
      answer: failed || !chat ? '' : `answer ${i + 1}`,
      error: failed ? { code: 'MODEL-ERROR', message: 'The model did not answer', nodeId: 'llm' } : null,
      usage: usage(failed ? 0 : 121 + i),
      steps: 6,
      elapsed_ms: failed ? 2200 : 980 + i * 10,
      conversation_id: chat ? (conv?.id ?? null) : null,
      created_by: USER,
      created_by_name: 'Ada',
      created_at: at,
      finished_at: at,
    };
    return { run, nodes: executions(i + 1, at, failed) };
  });
  for (const c of conversations) {
    const mine = runs.filter((r) => r.run.conversation_id === c.id);
    c.message_count = mine.length;
    c.last_message_at = mine[0]?.run.created_at ?? null;
  }
  const inPeriod = (at: string, period: LogPeriod) => {
    const days = PERIOD_DAYS[period];
    if (days === null) return true;
    const start = days === 0 ? new Date(new Date(now).setHours(0, 0, 0, 0)).getTime() : now - days * DAY;
    return Date.parse(at) >= start;
  };
  const step = async (method: string, args: unknown[]) => {
    calls.push({ method, args });
    await wait(opts.latencyMs ?? 0);
    if (opts.listFails && method.startsWith('list')) throw new ApiError({ status: 500, code: 'SYSTEM-1500', msg: 'Server error' });
  };
  const paged = <T,>(rows: T[], q: { page: number; page_size: number }) => ({ items: rows.slice((q.page - 1) * q.page_size, q.page * q.page_size), total: rows.length });
  const missing = () => new ApiError({ status: 400, code: 'VALIDATION-1000', msg: 'Parameter error' });

  return {
    appId: APP,
    workspaceId: WS,
    runs,
    conversations,
    calls,
    async listRuns(_app, _ws, q) {
      await step('listRuns', [q]);
      const kw = (q.keyword ?? '').toLowerCase();
      const rows = runs
        .map((r) => r.run)
        .filter(
          (r) =>
            inPeriod(r.created_at, q.period) &&
            (!q.status || r.status === q.status) &&
            (!q.source || r.source === q.source) &&
            (!kw || `${r.query} ${r.answer} ${JSON.stringify(r.inputs)}`.toLowerCase().includes(kw)),
        );
      return paged(rows, q);
    },
    async getRun(_app, _ws, runId) {
      await step('getRun', [runId]);
      const r = runs.find((x) => x.run.id === runId);
      if (!r) throw missing();
      return r;
    },
    async listConversations(_app, _ws, q) {
      await step('listConversations', [q]);
      return paged(
        conversations.filter((c) => inPeriod(c.created_at, q.period)),
        q,
      );
    },
    async listMessages(_app, _ws, id) {
      await step('listMessages', [id]);
      if (!conversations.some((c) => c.id === id)) throw missing();
      return runs
        .filter((r) => r.run.conversation_id === id)
        .reverse()
        .map(
          (r): ConversationMessage => ({
            id: uuid('1a', runs.indexOf(r) + 1),
            query: r.run.query,
            answer: r.run.answer,
            runId: r.run.id,
            status: r.run.status,
            error: r.run.error,
            files: [],
            usage: r.run.usage,
            elapsed_ms: r.run.elapsed_ms,
            created_at: r.run.created_at,
          }),
        );
    },
    async deleteConversation(_app, _ws, id) {
      await step('deleteConversation', [id]);
      const i = conversations.findIndex((c) => c.id === id);
      if (i < 0) throw missing();
      conversations.splice(i, 1);
      return null;
    },
  };
}
