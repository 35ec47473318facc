import { and, asc, count, desc, eq, gte, ilike, max, or, sql, type SQL } from 'drizzle-orm';
import { matchesValueType, type FlowDocument } from '../../../schemas/flow';
import type {
  ConversationListQuery,
  ConversationMessage,
  ConversationSummary,
  LogPeriod,
  MessageListQuery,
  NodeExecution,
  RunDetail,
  RunListQuery,
  RunSummary,
} from '../../../schemas/run-api';
import type { ServerContext } from '../context';
import { UUID_RE } from '../context';
import { appDrafts, appVersions, conversations, messages, nodeExecutions, runs, users } from '../db/schema';
import { badRequest, notFoundOrForeign } from '../errors';
import { contains } from '../services/workspace-resources';
import type { AppRef } from './app-flow';

/**
 * Reads of the run log (runs with their node executions) and the conversations of an app, and the
 * few writes that are not part of a run (delete a conversation, set its variables). Callers have
 * checked the app with `requireApp`; every query is also bound to the app's id.
 */

const displayName = sql<string>`coalesce(nullif(${users.realName}, ''), ${users.username}, '')`;
const usageOf = (r: { promptTokens: number; completionTokens: number; totalTokens: number }) => ({
  promptTokens: r.promptTokens,
  completionTokens: r.completionTokens,
  totalTokens: r.totalTokens,
});
const iso = (d: Date | null) => (d ? d.toISOString() : null);

const PERIOD_DAYS: Record<Exclude<LogPeriod, 'all' | 'today'>, number> = { '7d': 7, '30d': 30, '90d': 90, '180d': 180 };

/** The period's start: `today` from midnight (server time zone of the database), the others counted back from now. */
function since(period: LogPeriod, column: typeof runs.createdAt | typeof conversations.createdAt): SQL | undefined {
  if (period === 'all') return undefined;
  if (period === 'today') return gte(column, sql`date_trunc('day', now())`);
  return gte(column, sql`now() - make_interval(days => ${PERIOD_DAYS[period]})`);
}

type RunRow = typeof runs.$inferSelect;
function toRun(r: RunRow, creatorName: string | null, version: string | null): RunSummary {
  return {
    id: r.id,
    app_id: r.appId,
    mode: r.mode as RunSummary['mode'],
    source: r.source,
    version,
    node_id: r.nodeId,
    status: r.status,
    query: r.query,
    inputs: r.inputs,
    outputs: r.outputs,
    answer: r.answer,
    error: r.error ?? null,
    usage: usageOf(r),
    steps: r.steps,
    elapsed_ms: r.elapsedMs,
    conversation_id: r.conversationId,
    created_by: r.createdBy,
    created_by_name: creatorName ?? '',
    created_at: r.createdAt.toISOString(),
    finished_at: iso(r.finishedAt),
  };
}

/**
 * The run with its creator's name (public API and MCP runs: the caller's end user) and its
 * version's number (null: the draft, or a deleted version).
 */
const runColumns = { run: runs, creatorName: sql<string>`coalesce(nullif(${users.realName}, ''), ${users.username}, ${runs.endUser}, '')`, version: appVersions.version };

/** The app's runs, newest first, by period, status, source and keyword (query, answer or inputs). */
export async function listRuns(ctx: ServerContext, app: AppRef, q: RunListQuery) {
  const conds: (SQL | undefined)[] = [eq(runs.appId, app.id), since(q.period, runs.createdAt)];
  if (q.status) conds.push(eq(runs.status, q.status));
  if (q.source) conds.push(eq(runs.source, q.source));
  if (q.keyword) {
    const k = contains(q.keyword);
    conds.push(or(ilike(runs.query, k), ilike(runs.answer, k), ilike(sql`${runs.inputs}::text`, k)));
  }
  const where = and(...conds);
  const [{ total }] = await ctx.db.select({ total: count() }).from(runs).where(where);
  const rows = await ctx.db
    .select(runColumns)
    .from(runs)
    .leftJoin(users, eq(users.id, runs.createdBy))
    .leftJoin(appVersions, eq(appVersions.id, runs.versionId))
    .where(where)
    .orderBy(desc(runs.createdAt), desc(runs.id))
    .limit(q.page_size)
    .offset((q.page - 1) * q.page_size);
  return { list: rows.map((r) => toRun(r.run, r.creatorName, r.version)), total: Number(total), page: q.page, page_size: q.page_size };
}

/** The run row of the app, or VALIDATION-1000. */
export async function runOf(ctx: ServerContext, app: AppRef, runId: string): Promise<RunRow> {
  if (!UUID_RE.test(runId)) throw notFoundOrForeign('Run', runId);
  const [row] = await ctx.db.select().from(runs).where(and(eq(runs.id, runId), eq(runs.appId, app.id)));
  if (!row) throw notFoundOrForeign('Run', runId);
  return row;
}

/** A run with its node executions in the order they started. */
export async function getRunDetail(ctx: ServerContext, app: AppRef, runId: string): Promise<RunDetail> {
  await runOf(ctx, app, runId);
  const [row] = await ctx.db
    .select(runColumns)
    .from(runs)
    .leftJoin(users, eq(users.id, runs.createdBy))
    .leftJoin(appVersions, eq(appVersions.id, runs.versionId))
    .where(eq(runs.id, runId));
  const nodes = await ctx.db.select().from(nodeExecutions).where(eq(nodeExecutions.runId, runId)).orderBy(asc(nodeExecutions.seq));
  return {
    run: toRun(row.run, row.creatorName, row.version),
    nodes: nodes.map(
      (n): NodeExecution => ({
        id: n.id,
        execution_id: n.executionId,
        seq: n.seq,
        node_id: n.nodeId,
        kind: n.kind,
        title: n.title,
        parent_id: n.parentId,
        parent_execution_id: n.parentExecutionId,
        index: n.itemIndex,
        scope: n.scope,
        status: n.status,
        inputs: n.inputs,
        outputs: n.outputs,
        handle: n.handle,
        error: n.error ?? null,
        elapsed_ms: n.elapsedMs,
        usage: usageOf(n),
        retries: n.retries,
        started_at: n.startedAt.toISOString(),
        finished_at: iso(n.finishedAt),
      }),
    ),
  };
}

// ---------------------------------------------------------------- conversations

/** The app's conversations, newest first, with their message count and last message time. */
export async function listConversations(ctx: ServerContext, app: AppRef, q: ConversationListQuery) {
  const where = and(eq(conversations.appId, app.id), since(q.period, conversations.createdAt));
  const [{ total }] = await ctx.db.select({ total: count() }).from(conversations).where(where);
  const stats = ctx.db
    .select({ conversationId: messages.conversationId, n: count().as('n'), last: max(messages.createdAt).as('last') })
    .from(messages)
    .groupBy(messages.conversationId)
    .as('stats');
  const rows = await ctx.db
    .select({ c: conversations, n: stats.n, last: stats.last, creatorName: displayName })
    .from(conversations)
    .leftJoin(stats, eq(stats.conversationId, conversations.id))
    .leftJoin(users, eq(users.id, conversations.createdBy))
    .where(where)
    .orderBy(desc(conversations.createdAt), desc(conversations.id))
    .limit(q.page_size)
    .offset((q.page - 1) * q.page_size);
  const list = rows.map(
    (r): ConversationSummary => ({
      id: r.c.id,
      name: r.c.name,
      message_count: Number(r.n ?? 0),
      // max() over timestamps comes back as text from some drivers.
      last_message_at: r.last ? new Date(r.last as unknown as string).toISOString() : null,
      created_by: r.c.createdBy,
      created_by_name: r.creatorName ?? '',
      created_at: r.c.createdAt.toISOString(),
    }),
  );
  return { list, total: Number(total), page: q.page, page_size: q.page_size };
}

async function conversationOf(ctx: ServerContext, app: AppRef, id: string) {
  if (!UUID_RE.test(id)) throw notFoundOrForeign('Conversation', id);
  const [row] = await ctx.db.select().from(conversations).where(and(eq(conversations.id, id), eq(conversations.appId, app.id)));
  if (!row) throw notFoundOrForeign('Conversation', id);
  return row;
}

/** The conversation's messages, oldest first. */
export async function listMessages(ctx: ServerContext, app: AppRef, conversationId: string, q: MessageListQuery) {
  await conversationOf(ctx, app, conversationId);
  const where = eq(messages.conversationId, conversationId);
  const [{ total }] = await ctx.db.select({ total: count() }).from(messages).where(where);
  const rows = await ctx.db
    .select()
    .from(messages)
    .where(where)
    .orderBy(asc(messages.createdAt), asc(messages.id))
    .limit(q.page_size)
    .offset((q.page - 1) * q.page_size);
  const list = rows.map(
    (m): ConversationMessage => ({
      id: m.id,
      query: m.query,
      answer: m.answer,
      runId: m.runId,
      status: m.status,
      error: m.error ?? null,
      files: m.files,
      usage: usageOf(m),
      elapsed_ms: m.elapsedMs,
      created_at: m.createdAt.toISOString(),
    }),
  );
  return { list, total: Number(total), page: q.page, page_size: q.page_size };
}

/** Deletes the conversation and its messages; its runs stay in the log (without the conversation). */
export async function deleteConversation(ctx: ServerContext, app: AppRef, conversationId: string): Promise<void> {
  await conversationOf(ctx, app, conversationId);
  await ctx.db.delete(conversations).where(and(eq(conversations.id, conversationId), eq(conversations.appId, app.id)));
}

/** The conversation's variables: the flow's declared ones, stored values over the defaults. */
export async function getConversationVariables(ctx: ServerContext, app: AppRef, conversationId: string): Promise<Record<string, unknown>> {
  const conv = await conversationOf(ctx, app, conversationId);
  const declared = await declaredVariables(ctx, app);
  const out: Record<string, unknown> = {};
  for (const v of declared) out[v.name] = Object.prototype.hasOwnProperty.call(conv.variables, v.name) ? conv.variables[v.name] : v.value;
  return out;
}

async function declaredVariables(ctx: ServerContext, app: AppRef) {
  const [draft] = await ctx.db.select({ document: appDrafts.document }).from(appDrafts).where(eq(appDrafts.appId, app.id));
  return ((draft?.document as FlowDocument | undefined)?.variables?.conversation ?? []) as FlowDocument['variables']['conversation'];
}

/**
 * Sets some of the conversation's variables (the others keep their values). Each name must be a
 * conversation variable the draft declares and each value must fit its type; otherwise
 * VALIDATION-1000 with the offending paths and nothing changes.
 */
export async function setConversationVariables(
  ctx: ServerContext,
  app: AppRef,
  conversationId: string,
  values: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const conv = await conversationOf(ctx, app, conversationId);
  const declared = new Map((await declaredVariables(ctx, app)).map((v) => [v.name, v]));
  const issues: { path: string; message: string }[] = [];
  for (const [name, value] of Object.entries(values)) {
    const v = declared.get(name);
    if (!v) issues.push({ path: `body/variables/${name}`, message: 'is not a conversation variable of this flow' });
    else if (!matchesValueType(value, v.type)) issues.push({ path: `body/variables/${name}`, message: `must be ${v.type}` });
  }
  if (issues.length) throw badRequest(`Parameter error: ${issues.map((i) => `${i.path} ${i.message}`).join('; ')}`, issues);
  await ctx.db
    .update(conversations)
    .set({ variables: { ...conv.variables, ...values }, updatedAt: new Date() })
    .where(eq(conversations.id, conv.id));
  return getConversationVariables(ctx, app, conversationId);
}
