import { randomUUID } from 'node:crypto';
import { and, eq, sql, type SQL } from 'drizzle-orm';
import { isChatMode } from '../../../schemas/flow';
import type { DraftChatBody, DraftWorkflowBody, RunCreatedEvent, RunFileRef } from '../../../schemas/run-api';
import type { RunEvent } from '../../../schemas/run';
import { createSecretMasker, run, type RunExecution, type RunResult } from '../../engine';
import type { ServerContext } from '../context';
import { conversations, messages, runs } from '../db/schema';
import { badRequest, notFoundOrForeign } from '../errors';
import { checkRunFiles } from '../services/files';
import { loadDraftFlow, type AppScope } from './app-flow';
import { RunRecorder } from './recorder';
import { runRegistry } from './registry';
import { buildExecutorServices } from './services';

/** Longest wait of a run's first write on the embedded database (see startDraftRun). */
const FIRST_WRITE_WAIT_MS = 100;

/** A run that has started: its first stream event, its events, and when it is stored. */
export interface StartedRun {
  created: RunCreatedEvent;
  execution: RunExecution;
  /** Settles once the run has ended and its rows are written (never rejects). */
  stored: Promise<RunResult>;
}

export type DraftRunRequest = { kind: 'chat'; body: DraftChatBody } | { kind: 'workflow'; body: DraftWorkflowBody };

/** A conversation's name: the first question, cut to 50 characters. */
const nameOf = (query: string) => {
  const one = query.replace(/\s+/g, ' ').trim();
  return one.length > 50 ? `${one.slice(0, 49)}…` : one;
};

/**
 * Starts a debug run of the app's draft. Everything that can refuse the request (membership, app,
 * mode, conversation, a flow that cannot run) is checked before anything is written, so a refused
 * request changes nothing. Then the engine starts while the run row (and for chat the conversation
 * and message) is written; the recorder stores node executions as they end.
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
  const userId = s.caller.userId;
  const files: RunFileRef[] = req.body.files ?? [];
  // Sending a file gives the conversation's user access to it (services/files.ts): only one's own.
  if (files.length) await checkRunFiles(ctx, s.caller, files);
  const inputs = req.body.inputs ?? {};
  const runId = randomUUID();

  let conversationId: string | undefined;
  let conversationVars: Record<string, unknown> | undefined;
  let messageId: string | undefined;
  if (req.kind === 'chat' && req.body.conversation_id) {
    const [conv] = await ctx.db
      .select({ id: conversations.id, variables: conversations.variables })
      .from(conversations)
      .where(and(eq(conversations.id, req.body.conversation_id), eq(conversations.appId, app.id), eq(conversations.tenantId, app.tenantId)));
    if (!conv) throw notFoundOrForeign('Conversation', req.body.conversation_id);
    conversationId = conv.id;
    conversationVars = conv.variables;
  }

  const query = req.kind === 'chat' ? req.body.query : '';
  // The engine masks secrets in what the run emits; what the request put in the rows is masked here.
  const mask = createSecretMasker(Object.values(flow.env));
  // One statement (one round trip, atomic): the new conversation, the run, the message. Not awaited:
  // the run starts at once (the first token need not wait for it); the recorder writes the run's
  // node rows and end after it. With a database server it is sent on the next turn of the event
  // loop, once the run has gone as far as it can without waiting (a model request is on its way).
  // The embedded database works on this thread, and its insert (1.5 to 2 ms) would sit between the
  // provider's first token and the client: there it waits until the first answer chunk has gone
  // out, the run has ended, or FIRST_WRITE_WAIT_MS have passed.
  const parts: SQL[] = [];
  if (chat && !conversationId) {
    conversationId = randomUUID();
    parts.push(sql`c AS (INSERT INTO ${conversations} (id, tenant_id, workspace_id, app_id, source, name, variables, created_by)
      VALUES (${conversationId}, ${app.tenantId}, ${app.workspaceId}, ${app.id}, 'draft', ${mask.text(nameOf(query))}, ${JSON.stringify(flow.plan.conversationDefaults)}::jsonb, ${userId}))`);
  }
  parts.push(sql`r AS (INSERT INTO ${runs} (id, tenant_id, workspace_id, app_id, mode, source, query, inputs, created_by, conversation_id)
    VALUES (${runId}, ${app.tenantId}, ${app.workspaceId}, ${app.id}, ${app.mode}, 'draft', ${mask.text(query)}, ${JSON.stringify(mask.value(inputs))}::jsonb, ${userId}, ${conversationId ?? null}))`);
  if (conversationId) {
    messageId = randomUUID();
    parts.push(sql`m AS (INSERT INTO ${messages} (id, conversation_id, run_id, query, files, created_by)
      VALUES (${messageId}, ${conversationId}, ${runId}, ${mask.text(query)}, ${JSON.stringify(mask.value(files))}::jsonb, ${userId}))`);
  }
  let go!: () => void;
  const due = new Promise<void>((r) => (go = r));
  if (ctx.exclusiveDb) setTimeout(go, FIRST_WRITE_WAIT_MS).unref();
  else go();
  const inserted = due.then(() => new Promise((r) => setImmediate(r))).then(() => ctx.db.execute(sql`WITH ${sql.join(parts, sql`, `)} SELECT 1`));

  const registry = runRegistry(ctx);
  const controller = new AbortController();
  const recorder = new RunRecorder(ctx.db, runId, log, inserted);
  const execution = run(flow.plan, {
    runId,
    inputs,
    sys: {
      ...(chat ? { query, conversation_id: conversationId } : {}),
      files,
      user_id: userId,
      app_id: app.id,
    },
    env: flow.env,
    ...(conversationVars ? { conversation: conversationVars } : {}),
    signal: controller.signal,
    services: buildExecutorServices(ctx, { tenantId: app.tenantId, workspaceId: app.workspaceId, appId: app.id, userId, secrets: Object.values(flow.env) }),
    onEvent: ctx.exclusiveDb
      ? (e) => {
          if (e.type === 'answer_chunk') go();
          recorder.onEvent(e);
        }
      : recorder.onEvent,
  });
  execution.result.then(go, go);
  registry.add({ runId, tenantId: app.tenantId, appId: app.id, controller });
  const stored = execution.result.then(async (result) => {
    await recorder.finish(result, { messageId, conversationId });
    registry.remove(runId);
    return result;
  });
  const created: RunCreatedEvent = { type: 'run_created', runId, ...(conversationId ? { conversationId } : {}), ...(messageId ? { messageId } : {}) };
  return { created, execution, stored };
}

/** The SSE frame of one event. */
export const sseFrame = (e: RunCreatedEvent | RunEvent) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`;

/**
 * The stream of a run: `run_created`, then each event as the engine emits it. Ends after the
 * run's last event once the run is stored; if the client goes away the iteration ends but the run
 * goes on.
 */
export async function* runStream(started: StartedRun): AsyncGenerator<string> {
  yield sseFrame(started.created);
  for await (const e of started.execution) yield sseFrame(e);
  // Close only once the run is stored, so a client reading the log after the stream sees it whole.
  await started.stored;
}
