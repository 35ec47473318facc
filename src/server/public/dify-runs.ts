import { and, eq, sql } from 'drizzle-orm';
import type { ChatMessageBody, DifyFileRef, WorkflowRunBody } from '../../../schemas/public-api';
import type { RunFileRef } from '../../../schemas/run-api';
import { UUID_RE, type Caller, type ServerContext } from '../context';
import { conversations, runs } from '../db/schema';
import { AppError, badRequest } from '../errors';
import { ErrorCode } from '../../../schemas/errors';
import { startRun, type RunRequest, type StartedRun } from '../runs/launch';
import { checkStartInputs } from '../runs/portal-inputs';
import { runRegistry } from '../runs/registry';
import { stopRunAnywhere } from '../runs/stop';
import { checkRunFiles } from '../services/portal-files';
import type { VerifiedKey } from '../security/api-keys';
import { apiTarget, endUserId, requireMode, type ApiTarget } from './target';

/**
 * Runs through the public API (Dify's chat-messages and workflows/run): the app's served version
 * (./target.ts), as the end user named by `user`, through the same run path and records as every
 * other run (source `api`). Everything that can refuse the request is checked before anything is
 * written.
 */

/** Not found, or not this app's or this user's: the same answer (Dify's 404). */
export const notFound = (what: string, id: string) => new AppError(404, ErrorCode.PARAM, `${what} does not exist`, { id });

/** The end user as the file and input checks see them (they read only the tenant and the user). */
export function endUserCaller(target: ApiTarget, user: string): Caller {
  return { userId: endUserId(target.app.id, user), tenantId: target.app.tenantId, role: 'user', username: user, sessionId: '' };
}

/** The key's app (a space key on an app route: AUTH-1007). */
export async function keyTarget(ctx: ServerContext, key: VerifiedKey): Promise<ApiTarget> {
  if (!key.appId) throw new AppError(401, ErrorCode.API_KEY_INVALID, 'This is a project space key (for its MCP endpoint): use an app key here');
  return apiTarget(ctx, key.appId);
}

/** Dify file references as Weft's: uploads of this end user (`local_file`); URLs are not fetched. */
function fileRefs(files: DifyFileRef[] | undefined): RunFileRef[] {
  return (files ?? []).map((f, i) => {
    if (f.transfer_method !== 'local_file' || !f.upload_file_id) {
      throw badRequest('Only uploaded files are taken (transfer_method local_file with upload_file_id from POST /v1/files/upload)', [
        { path: `body/files/${i}`, message: 'remote_url is not supported' },
      ]);
    }
    return { file_id: f.upload_file_id };
  });
}

/** File values in `inputs` as Dify writes them (`{ transfer_method, upload_file_id }`) become `{ file_id }`. */
function inputFiles(inputs: Record<string, unknown>): Record<string, unknown> {
  const one = (v: unknown): unknown => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return v;
    const o = v as { upload_file_id?: unknown };
    return typeof o.upload_file_id === 'string' ? { file_id: o.upload_file_id } : v;
  };
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(inputs)) out[k] = Array.isArray(v) ? v.map(one) : one(v);
  return out;
}

const apiConversationWhere = (target: ApiTarget, caller: Caller, id: string) =>
  and(eq(conversations.id, id), eq(conversations.appId, target.app.id), eq(conversations.createdBy, caller.userId), eq(conversations.source, 'api'));

/** The end user's own API conversation with this app, or 404. */
export async function apiConversation(ctx: ServerContext, target: ApiTarget, caller: Caller, id: string) {
  if (!UUID_RE.test(id)) throw notFound('Conversation', id);
  const [row] = await ctx.db.select().from(conversations).where(apiConversationWhere(target, caller, id));
  if (!row) throw notFound('Conversation', id);
  return row;
}

/**
 * {@link apiConversation} for a message, with the inputs of its last run (what a message with empty
 * `inputs` keeps) in the same statement: one round trip fewer before the first token.
 */
async function conversationOfMessage(ctx: ServerContext, target: ApiTarget, caller: Caller, id: string) {
  if (!UUID_RE.test(id)) throw notFound('Conversation', id);
  // Qualified by hand: in a one-table select drizzle writes bare column names ("id" would be the run's).
  const lastInputs = sql<Record<string, unknown> | null>`(select r.inputs from ${runs} r where r.conversation_id = ${conversations}.id order by r.created_at desc limit 1)`;
  const [row] = await ctx.db.select({ id: conversations.id, variables: conversations.variables, lastInputs }).from(conversations).where(apiConversationWhere(target, caller, id));
  if (!row) throw notFound('Conversation', id);
  return row;
}

export interface ApiRun {
  started: StartedRun;
  target: ApiTarget;
}

export async function startApiChat(ctx: ServerContext, key: VerifiedKey, body: ChatMessageBody, log: (e: unknown) => void): Promise<ApiRun> {
  const target = await keyTarget(ctx, key);
  requireMode(target, true);
  const caller = endUserCaller(target, body.user);
  const conv = body.conversation_id ? await conversationOfMessage(ctx, target, caller, body.conversation_id) : undefined;
  const files = await checkRunFiles(ctx, caller, target.features, fileRefs(body.files));
  let raw = inputFiles(body.inputs);
  // A conversation keeps the start form's values of its first message (Dify: later inputs are ignored when empty).
  if (conv && !Object.keys(raw).length) raw = conv.lastInputs ?? {};
  const inputs = await checkStartInputs(ctx, caller, target.flow.document, raw);
  const req: RunRequest = {
    flow: target.flow,
    source: 'api',
    userId: caller.userId,
    endUser: body.user,
    kind: 'chat',
    query: body.query,
    inputs,
    files,
    ...(conv ? { conversation: { id: conv.id, variables: conv.variables } } : { newConversation: { source: 'api' as const } }),
    collectCitations: target.features.citations,
    // A blocking run's id comes with its answer: nothing can resume its stream (../runs/launch.ts).
    logEvents: body.response_mode !== 'blocking',
  };
  return { started: await startRun(ctx, req, log), target };
}

export async function startApiWorkflow(ctx: ServerContext, key: VerifiedKey, body: WorkflowRunBody, log: (e: unknown) => void): Promise<ApiRun> {
  const target = await keyTarget(ctx, key);
  requireMode(target, false);
  const caller = endUserCaller(target, body.user);
  const files = await checkRunFiles(ctx, caller, target.features, fileRefs(body.files));
  const inputs = await checkStartInputs(ctx, caller, target.flow.document, inputFiles(body.inputs));
  const req: RunRequest = { flow: target.flow, source: 'api', userId: caller.userId, endUser: body.user, kind: 'workflow', query: '', inputs, files, logEvents: body.response_mode !== 'blocking' };
  return { started: await startRun(ctx, req, log), target };
}

/**
 * Stops the end user's run of this app (Dify's stop: `{ result: 'success' }` also when it had already
 * ended). Another app's or user's run, or an unknown one: 404.
 */
export async function stopApiRun(ctx: ServerContext, key: VerifiedKey, taskId: string, user: string): Promise<void> {
  const target = await keyTarget(ctx, key);
  const caller = endUserCaller(target, user);
  if (!UUID_RE.test(taskId)) throw notFound('Task', taskId);
  const scope = { tenantId: target.app.tenantId, appId: target.app.id, userId: caller.userId };
  if (runRegistry(ctx).stop(taskId, scope)) return;
  const [row] = await ctx.db
    .select({ id: runs.id, status: runs.status })
    .from(runs)
    .where(and(eq(runs.id, taskId), eq(runs.appId, target.app.id), eq(runs.createdBy, caller.userId), eq(runs.source, 'api')));
  if (!row) throw notFound('Task', taskId);
  // Another process's run gets the request over the run bus (../runs/stop.ts).
  if (row.status === 'running') await stopRunAnywhere(ctx, taskId, scope);
}
