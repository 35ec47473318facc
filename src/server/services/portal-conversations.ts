import { and, asc, count, desc, eq, ilike, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Caller, ServerContext } from '../context';
import { UUID_RE } from '../context';
import { apps, appVersions, conversationGroups, conversations, messages } from '../db/schema';
import { badRequest, exists, notFoundOrForeign } from '../errors';
import { canUseSql } from '../runs/portal-access';
import { ownConversation } from '../runs/portal-run';
import { featuresOf, type AppFeatures } from '../../../schemas/flow';
import {
  GROUPS_MAX,
  type Citation,
  type ConversationGroup,
  type FeedbackRating,
  type WebConversation,
  type WebConversationQuery,
  type WebConversationUpdateBody,
  type WebMessage,
  type WebMessagePage,
} from '../../../schemas/portal';
import { contains, isUniqueViolation, nothingToChange } from './workspace-resources';

/**
 * The portal user's conversations (the sessions page), their messages, feedback and groups. Every
 * query is bound to the caller's tenant and user: another user's conversation, message or group
 * answers VALIDATION-1000, as a missing one does. A user who lost access to an app keeps reading its
 * conversations (`accessible: false`); sending is refused by the run path.
 */

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const usageOf = (r: { promptTokens: number; completionTokens: number; totalTokens: number }) => ({
  promptTokens: r.promptTokens,
  completionTokens: r.completionTokens,
  totalTokens: r.totalTokens,
});

// Correlated with the outer conversations row (written out in full: drizzle renders a column
// without its table inside a selected sql``).
const messageCount = sql<number>`(select count(*)::int from ${messages} m where m.conversation_id = "conversations"."id")`;
const lastMessageAt = sql<string | null>`(select max(m.created_at) from ${messages} m where m.conversation_id = "conversations"."id")`;

const mine = (caller: Caller) => and(eq(conversations.tenantId, caller.tenantId), eq(conversations.createdBy, caller.userId), eq(conversations.source, 'portal'));

function columns(caller: Caller) {
  return {
    c: conversations,
    appName: apps.name,
    appIcon: apps.icon,
    appMode: apps.type,
    n: messageCount,
    last: lastMessageAt,
    accessible: sql<boolean>`${canUseSql(caller, sql.raw('"conversations"."app_id"'))}`,
  };
}

type Row = { c: typeof conversations.$inferSelect; appName: string; appIcon: WebConversation['app_icon']; appMode: WebConversation['app_mode']; n: number; last: string | Date | null; accessible: boolean };

function toConversation(r: Row): WebConversation {
  const c = r.c;
  return {
    id: c.id,
    app_id: c.appId,
    app_name: r.appName,
    app_icon: r.appIcon,
    app_mode: r.appMode,
    name: c.name,
    pinned: c.pinned,
    group_id: c.groupId,
    persona: c.persona,
    accessible: Boolean(r.accessible),
    message_count: Number(r.n ?? 0),
    // max() over timestamps comes back as text from some drivers.
    last_message_at: r.last ? new Date(r.last).toISOString() : null,
    created_at: c.createdAt.toISOString(),
    updated_at: c.updatedAt.toISOString(),
  };
}

/** GET /conversations: the user's own, pinned first, then the most recently active. */
export async function listConversations(ctx: ServerContext, caller: Caller, q: WebConversationQuery) {
  const conds: (SQL | undefined)[] = [mine(caller)];
  if (q.app_id) conds.push(eq(conversations.appId, q.app_id));
  if (q.group_id) conds.push(eq(conversations.groupId, q.group_id));
  if (q.keyword) conds.push(ilike(conversations.name, contains(q.keyword)));
  const where = and(...conds);
  const [{ total }] = await ctx.db.select({ total: count() }).from(conversations).where(where);
  const rows = await ctx.db
    .select(columns(caller))
    .from(conversations)
    .innerJoin(apps, eq(apps.id, conversations.appId))
    .where(where)
    .orderBy(desc(conversations.pinned), desc(conversations.updatedAt), desc(conversations.id))
    .limit(q.page_size)
    .offset((q.page - 1) * q.page_size);
  return { list: rows.map((r) => toConversation(r as Row)), total: Number(total), page: q.page, page_size: q.page_size };
}

/** GET /conversations/{id} (and the legacy find): one of the user's conversations. */
export async function getConversation(ctx: ServerContext, caller: Caller, id: string): Promise<WebConversation> {
  if (!UUID_RE.test(id)) throw notFoundOrForeign('Conversation', id);
  const [row] = await ctx.db
    .select(columns(caller))
    .from(conversations)
    .innerJoin(apps, eq(apps.id, conversations.appId))
    .where(and(eq(conversations.id, id), mine(caller)));
  if (!row) throw notFoundOrForeign('Conversation', id);
  return toConversation(row as Row);
}

/** The user's own group (VALIDATION-1000 otherwise). */
async function ownGroup(ctx: ServerContext, caller: Caller, id: string) {
  if (!UUID_RE.test(id)) throw notFoundOrForeign('Group', id);
  const [row] = await ctx.db
    .select()
    .from(conversationGroups)
    .where(and(eq(conversationGroups.id, id), eq(conversationGroups.userId, caller.userId), eq(conversationGroups.tenantId, caller.tenantId)));
  if (!row) throw notFoundOrForeign('Group', id);
  return row;
}

/** PUT /conversations/{id}: rename, pin, move to one of the user's groups (or out), set the persona. */
export async function updateConversation(ctx: ServerContext, caller: Caller, id: string, body: WebConversationUpdateBody): Promise<WebConversation> {
  const conv = await ownConversation(ctx, caller, id);
  if (Object.values(body).every((v) => v === undefined)) throw nothingToChange();
  if (body.group_id) await ownGroup(ctx, caller, body.group_id);
  await ctx.db
    .update(conversations)
    .set({ name: body.name, pinned: body.pinned, groupId: body.group_id, persona: body.persona })
    .where(eq(conversations.id, conv.id));
  return getConversation(ctx, caller, conv.id);
}

/** DELETE /conversations/{id}: the conversation and its messages (its runs stay in the app's log). */
export async function deleteConversation(ctx: ServerContext, caller: Caller, id: string): Promise<void> {
  const conv = await ownConversation(ctx, caller, id);
  await ctx.db.delete(conversations).where(eq(conversations.id, conv.id));
}

function toMessage(m: typeof messages.$inferSelect, showCitations = true): WebMessage {
  return {
    id: m.id,
    conversation_id: m.conversationId,
    query: m.query,
    answer: m.answer,
    files: m.files,
    status: m.status,
    error: m.error ?? null,
    citations: showCitations ? (m.citations as Citation[]) : [],
    feedback: m.feedback ?? null,
    usage: usageOf(m),
    elapsed_ms: m.elapsedMs,
    created_at: m.createdAt.toISOString(),
  };
}

/** GET /conversations/{id}/messages: newest first, `limit` at a time, above `before_id` when given. */
export async function listMessages(ctx: ServerContext, caller: Caller, id: string, q: { before_id?: string; limit: number }): Promise<WebMessagePage> {
  const conv = await ownConversation(ctx, caller, id);
  const conds: (SQL | undefined)[] = [eq(messages.conversationId, conv.id)];
  if (q.before_id) {
    const [before] = await ctx.db
      .select({ id: messages.id, at: messages.createdAt })
      .from(messages)
      .where(and(eq(messages.id, q.before_id), eq(messages.conversationId, conv.id)));
    if (!before) throw notFoundOrForeign('Message', q.before_id);
    conds.push(or(lt(messages.createdAt, before.at), and(eq(messages.createdAt, before.at), lt(messages.id, before.id))));
  }
  const rows = await ctx.db
    .select()
    .from(messages)
    .where(and(...conds))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(q.limit + 1);
  // The passages show only when the app shows citations (as in message_end): the version the
  // conversation started on says so.
  const [version] = conv.versionId ? await ctx.db.select({ document: appVersions.document }).from(appVersions).where(eq(appVersions.id, conv.versionId)) : [];
  const { citations } = featuresOf((version?.document ?? {}) as { features?: AppFeatures });
  return { list: rows.slice(0, q.limit).map((m) => toMessage(m, citations)), has_more: rows.length > q.limit };
}

/** One of the user's messages with its conversation and the features of the version it started on. */
export async function ownMessage(ctx: ServerContext, caller: Caller, id: string) {
  if (!UUID_RE.test(id)) throw notFoundOrForeign('Message', id);
  const [row] = await ctx.db
    .select({ m: messages, c: conversations, document: appVersions.document })
    .from(messages)
    .innerJoin(conversations, eq(conversations.id, messages.conversationId))
    .leftJoin(appVersions, eq(appVersions.id, conversations.versionId))
    .where(and(eq(messages.id, id), mine(caller)));
  if (!row) throw notFoundOrForeign('Message', id);
  const features: AppFeatures = featuresOf((row.document ?? {}) as { features?: AppFeatures });
  return { message: row.m, conversation: row.c, features, document: row.document };
}

/** PUT /messages/{id}/feedback: like, dislike or null (taken back); refused when the app has no feedback. */
export async function setFeedback(ctx: ServerContext, caller: Caller, id: string, rating: FeedbackRating | null): Promise<WebMessage> {
  const { message, features } = await ownMessage(ctx, caller, id);
  if (!features.feedback) throw badRequest('This app does not take feedback on its answers', [{ path: 'body/rating', message: 'feedback is off for this app' }]);
  const [row] = await ctx.db.update(messages).set({ feedback: rating }).where(eq(messages.id, message.id)).returning();
  return toMessage(row!, features.citations);
}

// ---------------------------------------------------------------- groups

/** GET /groups: the user's groups, oldest first, with how many of their conversations each holds. */
export async function listGroups(ctx: ServerContext, caller: Caller): Promise<ConversationGroup[]> {
  const rows = await ctx.db
    .select({ g: conversationGroups, n: sql<number>`(select count(*)::int from ${conversations} c where c.group_id = "conversation_groups"."id")` })
    .from(conversationGroups)
    .where(and(eq(conversationGroups.userId, caller.userId), eq(conversationGroups.tenantId, caller.tenantId)))
    .orderBy(asc(conversationGroups.createdAt), asc(conversationGroups.id));
  return rows.map((r) => ({ id: r.g.id, name: r.g.name, conversation_count: Number(r.n), created_at: r.g.createdAt.toISOString() }));
}

const taken = (name: string) => exists(`You already have a group named '${name}'`);

/** POST /groups: names unique per user (any case); at most GROUPS_MAX. */
export async function createGroup(ctx: ServerContext, caller: Caller, name: string): Promise<ConversationGroup> {
  const [{ n }] = await ctx.db.select({ n: count() }).from(conversationGroups).where(eq(conversationGroups.userId, caller.userId));
  if (Number(n) >= GROUPS_MAX) throw badRequest(`You can have at most ${GROUPS_MAX} groups`);
  const id = globalThis.crypto.randomUUID();
  try {
    await ctx.db.insert(conversationGroups).values({ id, tenantId: caller.tenantId, userId: caller.userId, name });
  } catch (e) {
    if (isUniqueViolation(e)) throw taken(name);
    throw e;
  }
  return (await listGroups(ctx, caller)).find((g) => g.id === id)!;
}

/** PUT /groups/{id}: rename. */
export async function renameGroup(ctx: ServerContext, caller: Caller, id: string, name: string): Promise<ConversationGroup> {
  const group = await ownGroup(ctx, caller, id);
  try {
    await ctx.db.update(conversationGroups).set({ name }).where(eq(conversationGroups.id, group.id));
  } catch (e) {
    if (isUniqueViolation(e)) throw taken(name);
    throw e;
  }
  return (await listGroups(ctx, caller)).find((g) => g.id === id)!;
}

/** DELETE /groups/{id}: the group goes; its conversations stay, out of any group. */
export async function deleteGroup(ctx: ServerContext, caller: Caller, id: string): Promise<void> {
  const group = await ownGroup(ctx, caller, id);
  await ctx.db.delete(conversationGroups).where(eq(conversationGroups.id, group.id));
}
