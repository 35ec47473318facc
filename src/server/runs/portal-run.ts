import { and, desc, eq, sql } from 'drizzle-orm';
import { isChatMode } from '../../../schemas/flow';
import type { WebChatBody, WebMessageEnd, WebWorkflowBody } from '../../../schemas/portal';
import type { RunEvent } from '../../../schemas/run';
import type { Caller, ServerContext } from '../context';
import { UUID_RE } from '../context';
import { conversations, messages, runs } from '../db/schema';
import { badRequest, notFoundOrForeign } from '../errors';
import { checkRunFiles } from '../services/portal-files';
import { isNumbered, sseFrame, startRun, type RunRequest, type StartedRun } from './launch';
import { portalTarget, type PortalTarget } from './portal-access';
import { checkStartInputs } from './portal-inputs';
import { runRegistry } from './registry';
import { stopRunAnywhere } from './stop';
import { chatPersona } from '../digital-human/characters';
import { mark } from './first-token-trace';

/**
 * Portal runs: an end user chatting with, or running, the DISTRIBUTED version of an app, through the
 * same run path and records as debug runs (source `portal`). Everything that can refuse the request
 * (access, mode, the conversation being theirs, files, inputs) is checked before anything is written.
 */

export interface PortalRun {
  started: StartedRun;
  target: PortalTarget;
}

function requireMode(target: PortalTarget, chat: boolean) {
  const { mode } = target.card;
  if (chat !== isChatMode(mode)) {
    const why = chat ? `The app is a ${mode}: run it with workflow-runs` : `The app is a ${mode}: send it chat-messages`;
    throw badRequest(why, [{ path: 'portal_id', message: `mode ${mode}` }]);
  }
}

/** The user's own portal conversation with this app (anyone else's, or a missing one: VALIDATION-1000). */
export async function ownConversation(ctx: ServerContext, caller: Caller, id: string, appId?: string) {
  if (!UUID_RE.test(id)) throw notFoundOrForeign('Conversation', id);
  const [row] = await ctx.db.select().from(conversations).where(ownConversationWhere(caller, id, appId));
  if (!row) throw notFoundOrForeign('Conversation', id);
  return row;
}

const ownConversationWhere = (caller: Caller, id: string, appId?: string) =>
  and(
    eq(conversations.id, id),
    eq(conversations.tenantId, caller.tenantId),
    eq(conversations.createdBy, caller.userId),
    eq(conversations.source, 'portal'),
    ...(appId ? [eq(conversations.appId, appId)] : []),
  );

/**
 * {@link ownConversation} for a message, with the inputs of its last run (what a message without
 * `inputs` reuses) in the same statement: one round trip fewer before the first token.
 */
async function conversationOfMessage(ctx: ServerContext, caller: Caller, id: string, appId: string) {
  if (!UUID_RE.test(id)) throw notFoundOrForeign('Conversation', id);
  // Qualified by hand: in a one-table select drizzle writes bare column names ("id" would be the run's).
  const lastInputs = sql<Record<string, unknown> | null>`(select r.inputs from ${runs} r where r.conversation_id = ${conversations}.id order by r.created_at desc limit 1)`;
  const [row] = await ctx.db
    .select({ id: conversations.id, variables: conversations.variables, persona: conversations.persona, lastInputs })
    .from(conversations)
    .where(ownConversationWhere(caller, id, appId));
  if (!row) throw notFoundOrForeign('Conversation', id);
  return row;
}

/**
 * POST /portal/{portal_id}/chat-messages. `regenerate_message_id` answers that message's question
 * again (with its files): it must be the conversation's last message, and it is replaced (deleted
 * before the new run reads the conversation's memory). Without `inputs`, a conversation's message
 * reuses the inputs of its last run (the start form is asked once per conversation).
 */
export async function startPortalChat(ctx: ServerContext, caller: Caller, appId: string, body: WebChatBody, log: (e: unknown) => void): Promise<PortalRun> {
  const target = await portalTarget(ctx, caller, appId);
  mark('target');
  requireMode(target, true);
  const conv = body.conversation_id ? await conversationOfMessage(ctx, caller, body.conversation_id, appId) : undefined;
  let query = body.query;
  let fileRefs = body.files ?? [];
  let replaced: string | undefined;
  if (body.regenerate_message_id) {
    if (!conv) throw badRequest('Regenerating needs the conversation_id of the message', [{ path: 'body/conversation_id', message: 'required with regenerate_message_id' }]);
    const [last] = await ctx.db
      .select({ id: messages.id, query: messages.query, files: messages.files })
      .from(messages)
      .where(eq(messages.conversationId, conv.id))
      .orderBy(desc(messages.createdAt), desc(messages.id))
      .limit(1);
    if (!last || last.id !== body.regenerate_message_id) throw notFoundOrForeign('Message', body.regenerate_message_id);
    query = last.query;
    fileRefs = last.files;
    replaced = last.id;
  }
  const files = await checkRunFiles(ctx, caller, target.features, fileRefs);
  const raw = body.inputs ?? conv?.lastInputs ?? {};
  const inputs = await checkStartInputs(ctx, caller, target.flow.document, raw);
  if (replaced) await ctx.db.delete(messages).where(and(eq(messages.id, replaced), eq(messages.conversationId, conv!.id)));
  const persona = chatPersona(target.persona, conv?.persona);
  const req: RunRequest = {
    flow: target.flow,
    source: 'portal',
    userId: caller.userId,
    kind: 'chat',
    query,
    inputs,
    files,
    ...(conv ? { conversation: { id: conv.id, variables: conv.variables } } : { newConversation: { source: 'portal' as const } }),
    // A digital human's character persona comes first, then the user's own for the conversation (issue 31).
    ...(persona ? { persona } : {}),
    collectCitations: true,
    // Never shown to the end user, live or resumed (portalEvent): not logged, not numbered.
    logNodeChunks: false,
  };
  return { started: await startRun(ctx, req, log), target };
}

/** POST /portal/{portal_id}/workflow-runs: the start form's values checked, then the distributed version runs. */
export async function startPortalWorkflow(ctx: ServerContext, caller: Caller, appId: string, body: WebWorkflowBody, log: (e: unknown) => void): Promise<PortalRun> {
  const target = await portalTarget(ctx, caller, appId);
  requireMode(target, false);
  const files = await checkRunFiles(ctx, caller, target.features, body.files ?? []);
  const inputs = await checkStartInputs(ctx, caller, target.flow.document, body.inputs);
  const req: RunRequest = { flow: target.flow, source: 'portal', userId: caller.userId, kind: 'workflow', query: '', inputs, files, logNodeChunks: false };
  return { started: await startRun(ctx, req, log), target };
}

/**
 * A run event as an end user may see it: the nodes' progress (which node, its title, state and
 * time) without their inputs and outputs (a prompt, a knowledge passage or an HTTP answer is the
 * builder's, not the user's), and no `node_chunk` (what the user is told streams as `answer_chunk`;
 * an LLM whose text feeds another node is not an answer). Null: the event is not sent.
 */
export function portalEvent(e: RunEvent): RunEvent | null {
  switch (e.type) {
    case 'node_chunk':
      return null;
    case 'node_started':
      return { ...e, inputs: {} };
    case 'node_finished':
      return { ...e, inputs: {}, outputs: {} };
    case 'node_failed':
      return { ...e, inputs: {} };
    case 'loop_next':
      return { ...e, variables: {} };
    default:
      return e;
  }
}

/** The `message_end` frame of a portal chat: numbered after the run's last event. */
export const messageEndFrame = (end: WebMessageEnd, id: number) => `event: message_end\nid: ${id}\ndata: ${JSON.stringify(end)}\n\n`;

/**
 * The stream of a portal run: `run_created`, the run events as {@link portalEvent} shows them, and
 * for chat a last `message_end` frame once the answer is stored (its citations when the app shows
 * them, and the usage). Each frame's `id:` is its event's number in the run's log (a portal run
 * logs no `node_chunk`: the ids go 0, 1, 2… without gaps), `message_end` the number after the last:
 * a client that lost the stream resumes after it on any process (./portal-resume.ts).
 */
export async function* portalStream({ started, target }: PortalRun): AsyncGenerator<string> {
  let seq = 0;
  yield sseFrame(started.created, seq);
  for await (const e of started.execution) {
    // Portal runs number their events without `node_chunk` (startPortalChat: logNodeChunks false).
    if (!isNumbered(e, false)) continue;
    seq++;
    const shown = portalEvent(e);
    if (!shown) continue;
    yield sseFrame(shown, seq);
    // After the yield: the frame has been written (sendSse asks for the next one).
    if (shown.type === 'answer_chunk') mark('frame');
  }
  const result = await started.stored;
  const { messageId, conversationId } = started.created;
  if (messageId && conversationId) {
    yield messageEndFrame({ type: 'message_end', messageId, conversationId, citations: target.features.citations ? started.citations : [], usage: result.usage }, seq + 1);
  }
}

/**
 * POST /portal/{portal_id}/runs/{run_id}/stop: the user's own runs only. A run going on here is
 * stopped at once; one that already ended answers `stopped: false`; anyone else's: VALIDATION-1000.
 */
export async function stopPortalRun(ctx: ServerContext, caller: Caller, appId: string, runId: string): Promise<{ stopped: boolean }> {
  if (!UUID_RE.test(appId) || !UUID_RE.test(runId)) throw notFoundOrForeign('Run', runId);
  const scope = { tenantId: caller.tenantId, appId, userId: caller.userId };
  if (runRegistry(ctx).stop(runId, scope)) return { stopped: true };
  const [row] = await ctx.db
    .select({ id: runs.id, status: runs.status })
    .from(runs)
    .where(and(eq(runs.id, runId), eq(runs.appId, appId), eq(runs.tenantId, caller.tenantId), eq(runs.createdBy, caller.userId), eq(runs.source, 'portal')));
  if (!row) throw notFoundOrForeign('Run', runId);
  // Another process's run gets the request over the run bus (./stop.ts).
  return { stopped: row.status === 'running' && (await stopRunAnywhere(ctx, runId, scope)) };
}
