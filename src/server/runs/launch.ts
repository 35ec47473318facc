import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { isChatMode } from '../../../schemas/flow';
import type { DraftChatBody, DraftWorkflowBody, RunCreatedEvent, RunFileRef, RunSource } from '../../../schemas/run-api';
import type { RunEvent } from '../../../schemas/run';
import type { Citation } from '../../../schemas/portal';
import { createSecretMasker, run, type ExecutionPlan, type RunExecution, type RunResult } from '../../engine';
import type { ServerContext } from '../context';
import { conversations, messages, runs } from '../db/schema';
import { badRequest, notFoundOrForeign } from '../errors';
import { checkRunFiles } from '../services/files';
import { loadDraftFlow, type AppRef, type AppScope } from './app-flow';
import { insertRows, type RawSql } from './raw-sql';
import { RunRecorder } from './recorder';
import { runWriterOf } from './run-writer';
import { wholeRun } from './whole-run';
import { runRegistry } from './registry';
import { buildExecutorServices } from './services';
import { dialogueCount } from './dialogue-count';
import { memoryTurnsOf } from './memory';
import { runEventLog, sseFrame } from './event-log';
import { mark } from './first-token-trace';

/** Longest wait of a run's first write on the embedded database (see startDraftRun). */
const FIRST_WRITE_WAIT_MS = 100;

/** A run that has started: its first stream event, its events, and when it is stored. */
export interface StartedRun {
  created: RunCreatedEvent;
  execution: RunExecution;
  /** Settles once the run has ended and its rows are written (never rejects). */
  stored: Promise<RunResult>;
  /** The knowledge passages the run's knowledge-retrieval nodes found (chat runs that collect them). */
  citations: Citation[];
}

export type DraftRunRequest = { kind: 'chat'; body: DraftChatBody } | { kind: 'workflow'; body: DraftWorkflowBody };

/** A conversation's name: the first question, cut to 50 characters. */
export const nameOf = (query: string) => {
  const one = query.replace(/\s+/g, ' ').trim();
  return one.length > 50 ? `${one.slice(0, 49)}…` : one;
};

/** What a run executes: the app and a compiled plan (a draft's, or a published version's with its id). */
export interface RunnableFlow {
  app: AppRef;
  plan: ExecutionPlan;
  env: Record<string, unknown>;
  /** The published version it runs; null for the draft. */
  versionId: string | null;
}

/**
 * One run to start, checked by its caller (nothing here refuses: a refused request must change
 * nothing, so every check comes before this). Chat runs name an existing conversation (the caller
 * checked it is theirs) or start one with `newConversation`.
 */
export interface RunRequest {
  flow: RunnableFlow;
  source: RunSource;
  userId: string;
  kind: 'chat' | 'workflow';
  query: string;
  inputs: Record<string, unknown>;
  files: RunFileRef[];
  conversation?: { id: string; variables: Record<string, unknown> };
  /** Chat without `conversation`: the new conversation's source (draft, portal or api). */
  newConversation?: { source: 'draft' | 'portal' | 'api' };
  /** Public API and MCP runs: the caller's end user as they name it (stored with the run and a new conversation). */
  endUser?: string;
  /** The end user's character for this conversation (`sys.persona`: LLM and agent nodes add it to their instructions). */
  persona?: string;
  /** Collect the knowledge passages of knowledge-retrieval nodes and store them with the message. */
  collectCitations?: boolean;
  /**
   * false: the run's stream is not written to the event log (run_events). For a blocking public-API
   * run: its id reaches the client only with its answer, so no client can resume its stream, and
   * its ~10 log rows were a third of the database's work per run. A resume of it answers its end
   * from the stored run (./resume-end.ts).
   */
  logEvents?: boolean;
  /**
   * false: the stream's `node_chunk` events are neither logged nor numbered (the log and the ids stay
   * gapless without them). For a portal run, whose stream and resume never show them (./portal-run.ts
   * portalEvent): a model's every token is a `node_chunk` and, through the answer that quotes it, an
   * `answer_chunk`, so this halves the log's rows per token. Its frames number the events the same way
   * ({@link isNumbered}).
   */
  logNodeChunks?: boolean;
}

/** Whether a run event takes a number in the run's stream and log (see RunRequest.logNodeChunks). */
export const isNumbered = (e: RunEvent, logNodeChunks: boolean) => logNodeChunks || e.type !== 'node_chunk';

/**
 * Starts a debug run of the app's draft. Everything that can refuse the request (membership, app,
 * mode, conversation, a flow that cannot run) is checked before anything is written, so a refused
 * request changes nothing. Then {@link startRun}.
 *
 * Stopping is explicit (the run registry, ./registry.ts); a client that stops reading does not stop
 * the run.
 */
export async function startDraftRun(ctx: ServerContext, s: AppScope, req: DraftRunRequest, log: (e: unknown) => void): Promise<StartedRun> {
  const flow = await loadDraftFlow(ctx, s);
  const { app } = flow;
  const chat = req.kind === 'chat';
  // Agent teams are conversations too: the entry agent runs, the others take its hand-offs (app-flow.ts).
  if (chat !== isChatMode(app.mode)) {
    const why = chat ? `App mode ${app.mode} does not take chat messages (use workflow-runs)` : `App mode ${app.mode} is a conversation (use chat-messages)`;
    throw badRequest(why, [{ path: 'app_id', message: `mode ${app.mode}` }]);
  }
  // Sending a file gives the conversation's user access to it (services/files.ts): only one's own.
  const files = req.body.files?.length ? await checkRunFiles(ctx, s.caller, req.body.files) : [];
  let conversation: RunRequest['conversation'];
  if (req.kind === 'chat' && req.body.conversation_id) {
    // A debug conversation is its member's own: another member (or a portal conversation) looks missing.
    const [conv] = await ctx.db
      .select({ id: conversations.id, variables: conversations.variables })
      .from(conversations)
      .where(
        and(
          eq(conversations.id, req.body.conversation_id),
          eq(conversations.appId, app.id),
          eq(conversations.tenantId, app.tenantId),
          eq(conversations.source, 'draft'),
          eq(conversations.createdBy, s.caller.userId),
        ),
      );
    if (!conv) throw notFoundOrForeign('Conversation', req.body.conversation_id);
    conversation = conv;
  }
  return startRun(
    ctx,
    {
      flow: { app, plan: flow.plan, env: flow.env, versionId: null },
      source: 'draft',
      userId: s.caller.userId,
      kind: req.kind,
      query: req.kind === 'chat' ? req.body.query : '',
      inputs: req.body.inputs ?? {},
      files,
      ...(conversation ? { conversation } : chat ? { newConversation: { source: 'draft' as const } } : {}),
    },
    log,
  );
}

/**
 * Starts a checked run (draft, portal, API…: one run path, one set of records): the engine starts
 * while the run row (and for chat the conversation and message) is written; the recorder stores
 * node executions as they end and the run's end (answer, usage, conversation variables, citations).
 */
export async function startRun(ctx: ServerContext, req: RunRequest, log: (e: unknown) => void): Promise<StartedRun> {
  const { app } = req.flow;
  const chat = req.kind === 'chat';
  const { userId, query, inputs, files } = req;
  // The engine masks secrets in what the run emits; what the request put in the rows is masked here.
  const mask = createSecretMasker(Object.values(req.flow.env));
  const runId = randomUUID();
  const versionId = req.flow.versionId;
  let conversationId = req.conversation?.id;
  let messageId: string | undefined;

  // One statement (one round trip): the new conversation, the run, the message. Not awaited:
  // the run starts at once (the first token need not wait for it); the recorder writes the run's
  // node rows and end after it. With a database server it is sent on the next turn of the event
  // loop, once the run has gone as far as it can without waiting (a model request is on its way).
  // The embedded database works on this thread, and its insert (1.5 to 2 ms) would sit between the
  // provider's first token and the client: there it waits until the first answer chunk has gone
  // out, the run has ended, or FIRST_WRITE_WAIT_MS have passed.
  const startedAt = new Date();
  const endUser = req.endUser ?? null;
  const newConversation = chat && !conversationId;
  const source = req.newConversation?.source ?? 'draft';
  if (newConversation) conversationId = randomUUID();
  if (conversationId) messageId = randomUUID();
  // Put together as text (./raw-sql.ts, cheaper than drizzle's builder) only when it is written (a
  // short run is written whole at its end instead); created_at and status take the database's defaults.
  const firstRows = (): RawSql[] => {
    const parts: RawSql[] = [];
    if (newConversation) {
      parts.push(
        insertRows(conversations, [
          {
            id: conversationId,
            tenantId: app.tenantId,
            workspaceId: app.workspaceId,
            appId: app.id,
            source,
            name: mask.text(nameOf(query)),
            variables: req.flow.plan.conversationDefaults,
            versionId,
            createdBy: userId,
            endUser,
          },
        ]),
      );
    }
    parts.push(
      insertRows(runs, [
        {
          id: runId,
          tenantId: app.tenantId,
          workspaceId: app.workspaceId,
          appId: app.id,
          mode: app.mode,
          source: req.source,
          versionId,
          query: mask.text(query),
          inputs: mask.value(inputs),
          createdBy: userId,
          endUser,
          conversationId: conversationId ?? null,
        },
      ]),
    );
    if (conversationId && messageId) {
      parts.push(insertRows(messages, [{ id: messageId, conversationId, runId, query: mask.text(query), files: mask.value(files), createdBy: userId }]));
    }
    return parts;
  };
  let go!: () => void;
  const due = new Promise<void>((r) => (go = r));
  if (ctx.exclusiveDb) setTimeout(go, FIRST_WRITE_WAIT_MS).unref();
  else go();
  // A run that ended before its first write (a short workflow: a few ms) is written whole at its
  // end instead, one statement shared with other runs ending then (./whole-run.ts, ./run-writer.ts):
  // nothing is written twice, and a busy server writes many runs per statement.
  let ended = false;
  const inserted = due
    .then(() => new Promise((r) => setImmediate(r)))
    .then(async () => {
      if (ended) return false;
      // Shared with the other runs' writes of this moment (./run-writer.ts): one statement, atomic per run.
      await runWriterOf(ctx.db).write(firstRows());
      return true;
    });
  const whole = wholeRun({
    runId,
    app,
    source: req.source,
    versionId,
    query: mask.text(query),
    inputs: mask.value(inputs),
    files: mask.value(files),
    userId,
    endUser,
    startedAt,
    ...(conversationId ? { conversation: { id: conversationId, ...(newConversation ? { created: { source, name: mask.text(nameOf(query)) } } : {}) } } : {}),
    ...(messageId ? { messageId } : {}),
  });

  const registry = runRegistry(ctx);
  const controller = new AbortController();
  const recorder = new RunRecorder(ctx.db, runId, log, inserted, whole);
  const citations: Citation[] = [];
  const collect = req.collectCitations ? citationCollector(citations) : undefined;
  const created: RunCreatedEvent = { type: 'run_created', runId, ...(conversationId ? { conversationId } : {}), ...(messageId ? { messageId } : {}) };
  // Every event of the stream goes to the durable log (queued: written in batches, never awaited
  // here), numbered as the stream numbers its frames: `run_created` 0, then 1, 2… (./event-log.ts).
  const eventLog = req.logEvents === false ? undefined : runEventLog(ctx);
  eventLog?.append(runId, 0, created);
  let seq = 0;
  const logNodeChunks = req.logNodeChunks !== false;
  const record = (e: RunEvent) => {
    if (eventLog && isNumbered(e, logNodeChunks)) eventLog.append(runId, ++seq, e);
    collect?.(e);
    recorder.onEvent(e);
  };
  // Built before the dialogue count is awaited: an existing conversation's memory is read from here
  // on (./memory.ts), beside the count and the nodes before the model's, not after them.
  const memoryTurns = req.conversation ? memoryTurnsOf(req.flow.plan) : 0;
  const services = buildExecutorServices(ctx, {
    tenantId: app.tenantId,
    workspaceId: app.workspaceId,
    appId: app.id,
    userId,
    secrets: Object.values(req.flow.env),
    ...(newConversation ? { newConversationId: conversationId } : {}),
    ...(req.conversation && memoryTurns ? { memoryPrefetch: { conversationId: req.conversation.id, turns: memoryTurns } } : {}),
  });
  const turn = chat && conversationId ? await dialogueCount(ctx, req.flow.plan, { id: conversationId, isNew: newConversation, messageId }) : undefined;
  mark('run');
  const execution = run(req.flow.plan, {
    runId,
    inputs,
    sys: {
      ...(chat ? { query, conversation_id: conversationId } : {}),
      ...(turn !== undefined ? { dialogue_count: turn } : {}),
      files,
      user_id: userId,
      app_id: app.id,
      ...(req.persona ? { persona: req.persona } : {}),
    },
    env: req.flow.env,
    ...(req.conversation ? { conversation: req.conversation.variables } : {}),
    signal: controller.signal,
    services,
    onEvent: ctx.exclusiveDb
      ? (e) => {
          if (e.type === 'answer_chunk') go();
          record(e);
        }
      : record,
  });
  execution.result.then(() => {
    ended = true;
    go();
  }, go);
  registry.add({ runId, tenantId: app.tenantId, appId: app.id, userId, source: req.source, controller });
  // Removed from the registry once stored (or its write failed): a server that stops waits for it.
  const stored = execution.result.then(async (result) => {
    try {
      await recorder.finish(result, { messageId, conversationId, ...(collect ? { citations } : {}) });
    } finally {
      registry.remove(runId);
    }
    return result;
  });
  return { created, execution, stored, citations };
}

/**
 * Gathers the passages of the run's knowledge-retrieval nodes as they finish (their `result`
 * outputs: services' chunks with the document's name as `title` and the base's name in metadata),
 * each segment once, best score kept.
 */
function citationCollector(into: Citation[]): (e: RunEvent) => void {
  const seen = new Map<string, Citation>();
  return (e) => {
    if (e.type !== 'node_finished' || e.kind !== 'knowledge-retrieval') return;
    const result = (e.outputs as { result?: unknown }).result;
    if (!Array.isArray(result)) return;
    for (const x of result as Record<string, unknown>[]) {
      const text = (v: unknown) => (typeof v === 'string' ? v : '');
      const metadata = (x.metadata ?? {}) as Record<string, unknown>;
      const c: Citation = {
        dataset_id: text(x.dataset_id),
        dataset_name: text(metadata.dataset_name),
        document_id: text(x.document_id),
        document_name: text(x.title),
        segment_id: text(x.segment_id),
        content: text(x.content),
        score: typeof x.score === 'number' ? x.score : 0,
      };
      const key = c.segment_id || `${c.document_id}:${c.content}`;
      const had = seen.get(key);
      if (had) {
        if (c.score > had.score) had.score = c.score;
        continue;
      }
      seen.set(key, c);
      into.push(c);
    }
  };
}

export { sseFrame };

/**
 * The stream of a run: `run_created`, then each event as the engine emits it, each frame with its
 * `id:` (its number in the run's event log: a client that reconnects, here or to another process,
 * resumes after it with Last-Event-ID). Ends after the run's last event once the run is stored; if
 * the client goes away the iteration ends but the run goes on.
 */
export async function* runStream(started: StartedRun): AsyncGenerator<string> {
  let seq = 0;
  yield sseFrame(started.created, seq);
  for await (const e of started.execution) yield sseFrame(e, ++seq);
  // Close only once the run is stored, so a client reading the log after the stream sees it whole.
  await started.stored;
}
