import { and, asc, desc, eq, gt, lt, or, sql, type SQL } from 'drizzle-orm';
import type {
  ConversationsQuery,
  DifyConversation,
  DifyMessage,
  DifyParameters,
  DifyTextToSpeech,
  DifyUploadedFile,
  MessagesQuery,
} from '../../../schemas/public-api';
import type { Citation } from '../../../schemas/portal';
import type { ServerContext } from '../context';
import { UUID_RE } from '../context';
import { conversations, messages, runs } from '../db/schema';
import { badRequest } from '../errors';
import { extensionOf } from '../knowledge/parse';
import { startFields } from '../runs/portal-access';
import { nameOf } from '../runs/launch';
import { storePortalUpload } from '../services/portal-files';
import type { VerifiedKey } from '../security/api-keys';
import { apiConversation, endUserCaller, keyTarget, notFound } from './dify-runs';
import { retrieverResources } from './dify-stream';
import { requireMode, type ApiTarget } from './target';

/**
 * The end user's conversations, messages, feedback and uploads through the public API (Dify's
 * shapes), and the app's parameters. Everything is bound to the key's app and the `user` string:
 * another app's or user's conversation or message answers 404, as a missing one does.
 */

const unix = (d: Date) => Math.floor(d.getTime() / 1000);

/** The first run's start-form values of each conversation (Dify's conversation `inputs`). */
const firstInputs = sql<Record<string, unknown> | null>`(select r.inputs from ${runs} r where r.conversation_id = "conversations"."id" order by r.created_at limit 1)`;

function toConversation(c: typeof conversations.$inferSelect, inputs: Record<string, unknown> | string | null): DifyConversation {
  return {
    id: c.id,
    name: c.name,
    inputs: (typeof inputs === 'string' ? JSON.parse(inputs) : inputs) ?? {},
    status: 'normal',
    introduction: '',
    created_at: unix(c.createdAt),
    updated_at: unix(c.updatedAt),
  };
}

async function chatTarget(ctx: ServerContext, key: VerifiedKey, user: string) {
  const target = await keyTarget(ctx, key);
  requireMode(target, true);
  return { target, caller: endUserCaller(target, user) };
}

/** GET /v1/conversations: the user's conversations with the app, `limit` after `last_id`, in `sort_by` order. */
export async function listApiConversations(ctx: ServerContext, key: VerifiedKey, q: ConversationsQuery) {
  const { target, caller } = await chatTarget(ctx, key, q.user);
  const mine = and(eq(conversations.appId, target.app.id), eq(conversations.createdBy, caller.userId), eq(conversations.source, 'api'));
  const column = q.sort_by.endsWith('created_at') ? conversations.createdAt : conversations.updatedAt;
  const descending = q.sort_by.startsWith('-');
  let after: SQL | undefined;
  if (q.last_id) {
    const last = await apiConversation(ctx, target, caller, q.last_id);
    const at = column === conversations.createdAt ? last.createdAt : last.updatedAt;
    // Keyset paging on (time, id), in the list's order.
    after = descending
      ? or(lt(column, at), and(eq(column, at), lt(conversations.id, last.id)))
      : or(gt(column, at), and(eq(column, at), gt(conversations.id, last.id)));
  }
  const rows = await ctx.db
    .select({ c: conversations, inputs: firstInputs })
    .from(conversations)
    .where(and(mine, after))
    .orderBy(descending ? desc(column) : asc(column), descending ? desc(conversations.id) : asc(conversations.id))
    .limit(q.limit + 1);
  const page = rows.slice(0, q.limit);
  return { limit: q.limit, has_more: rows.length > q.limit, data: page.map((r) => toConversation(r.c, r.inputs)) };
}

/** POST /v1/conversations/{id}/name: a name, or one made from the first question (`auto_generate`). */
export async function renameApiConversation(ctx: ServerContext, key: VerifiedKey, id: string, body: { name?: string; auto_generate: boolean; user: string }) {
  const { target, caller } = await chatTarget(ctx, key, body.user);
  const conv = await apiConversation(ctx, target, caller, id);
  let name = body.name ?? '';
  if (body.auto_generate) {
    const [first] = await ctx.db.select({ query: messages.query }).from(messages).where(eq(messages.conversationId, conv.id)).orderBy(asc(messages.createdAt)).limit(1);
    name = nameOf(first?.query ?? conv.name);
  }
  const [row] = await ctx.db.update(conversations).set({ name, updatedAt: new Date() }).where(eq(conversations.id, conv.id)).returning();
  const [first] = await ctx.db.select({ inputs: runs.inputs }).from(runs).where(eq(runs.conversationId, conv.id)).orderBy(asc(runs.createdAt)).limit(1);
  return toConversation(row!, first?.inputs ?? null);
}

/** DELETE /v1/conversations/{id}: the conversation and its messages (its runs stay in the app's log). */
export async function deleteApiConversation(ctx: ServerContext, key: VerifiedKey, id: string, user: string): Promise<void> {
  const { target, caller } = await chatTarget(ctx, key, user);
  const conv = await apiConversation(ctx, target, caller, id);
  await ctx.db.delete(conversations).where(eq(conversations.id, conv.id));
}

/** GET /v1/messages: the latest `limit` messages before `first_id` (or the newest), oldest first. */
export async function listApiMessages(ctx: ServerContext, key: VerifiedKey, q: MessagesQuery) {
  const { target, caller } = await chatTarget(ctx, key, q.user);
  const conv = await apiConversation(ctx, target, caller, q.conversation_id);
  let before: SQL | undefined;
  if (q.first_id) {
    if (!UUID_RE.test(q.first_id)) throw notFound('Message', q.first_id);
    const [first] = await ctx.db.select().from(messages).where(and(eq(messages.id, q.first_id), eq(messages.conversationId, conv.id)));
    if (!first) throw notFound('Message', q.first_id);
    before = or(lt(messages.createdAt, first.createdAt), and(eq(messages.createdAt, first.createdAt), lt(messages.id, first.id)));
  }
  const rows = await ctx.db
    .select({ m: messages, inputs: runs.inputs })
    .from(messages)
    .leftJoin(runs, eq(runs.id, messages.runId))
    .where(and(eq(messages.conversationId, conv.id), before))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(q.limit + 1);
  const page = rows.slice(0, q.limit).reverse();
  const data = page.map(
    ({ m, inputs }): DifyMessage => ({
      id: m.id,
      conversation_id: conv.id,
      inputs: inputs ?? {},
      query: m.query,
      answer: m.answer,
      message_files: m.files.map((f) => ({ id: f.file_id, type: (f.type ?? '').startsWith('image/') ? 'image' : 'document', url: '', belongs_to: 'user' })),
      feedback: m.feedback ? { rating: m.feedback } : null,
      retriever_resources: target.features.citations ? retrieverResources(m.citations as unknown as Citation[]) : [],
      created_at: unix(m.createdAt),
    }),
  );
  return { limit: q.limit, has_more: rows.length > q.limit, data };
}

/** POST /v1/messages/{id}/feedbacks: like, dislike or take back (null); refused when the app takes no feedback. */
export async function apiFeedback(ctx: ServerContext, key: VerifiedKey, messageId: string, body: { rating: 'like' | 'dislike' | null; user: string }): Promise<void> {
  const { target, caller } = await chatTarget(ctx, key, body.user);
  if (!UUID_RE.test(messageId)) throw notFound('Message', messageId);
  const [row] = await ctx.db
    .select({ id: messages.id })
    .from(messages)
    .innerJoin(conversations, eq(conversations.id, messages.conversationId))
    .where(and(eq(messages.id, messageId), eq(conversations.appId, target.app.id), eq(conversations.createdBy, caller.userId), eq(conversations.source, 'api')));
  if (!row) throw notFound('Message', messageId);
  if (!target.features.feedback) throw badRequest('This app does not take feedback on its answers', [{ path: 'body/rating', message: 'feedback is off for this app' }]);
  await ctx.db.update(messages).set({ feedback: body.rating }).where(eq(messages.id, row.id));
}

/** POST /v1/files/upload: the end user's attachment (kinds and size as the portal's). */
export async function apiUpload(ctx: ServerContext, key: VerifiedKey, user: string, file: { name: string; bytes: Buffer }): Promise<DifyUploadedFile> {
  const target = await keyTarget(ctx, key);
  const caller = endUserCaller(target, user);
  const stored = await storePortalUpload(ctx, caller, file);
  return {
    id: stored.id,
    name: stored.name,
    size: stored.size,
    extension: extensionOf(stored.name),
    mime_type: stored.mime_type,
    created_by: caller.userId,
    created_at: Math.floor(Date.now() / 1000),
  };
}

const CONTROL: Record<string, string> = { text: 'text-input', paragraph: 'paragraph', select: 'select', number: 'number', checkbox: 'checkbox', file: 'file', 'file-list': 'file-list' };

/** GET /v1/parameters: the served version's opening statement, questions, start form, uploads and voice (public/dify-audio.ts). */
export function apiParameters(target: ApiTarget, uploadMaxMb: number, voice: { text_to_speech: DifyTextToSpeech; speech_to_text: boolean }): DifyParameters {
  const f = target.features;
  const shown = f.suggested_questions_random_count > 0 ? f.suggested_questions.slice(0, f.suggested_questions_random_count) : f.suggested_questions;
  const up = f.file_upload;
  return {
    opening_statement: f.opening_statement,
    suggested_questions: shown,
    suggested_questions_after_answer: { enabled: f.suggested_questions_after_answer },
    speech_to_text: { enabled: voice.speech_to_text },
    text_to_speech: voice.text_to_speech,
    retriever_resource: { enabled: f.citations },
    annotation_reply: { enabled: false },
    more_like_this: { enabled: false },
    sensitive_word_avoidance: { enabled: false },
    user_input_form: startFields(target.flow.document).map((x) => ({
      [CONTROL[x.type] ?? 'text-input']: {
        label: x.label,
        variable: x.name,
        required: x.required,
        default: '',
        ...(x.max_length !== null ? { max_length: x.max_length } : {}),
        ...(x.type === 'select' ? { options: x.options } : {}),
        ...(x.type === 'file' || x.type === 'file-list' ? { allowed_file_extensions: x.allowed_extensions } : {}),
        ...(x.type === 'file-list' && x.max_files !== null ? { max_length_files: x.max_files } : {}),
      },
    })),
    file_upload: {
      enabled: up.enabled,
      allowed_file_types: up.enabled ? up.types : [],
      allowed_file_upload_methods: ['local_file'],
      number_limits: up.max_count,
      image: { enabled: up.enabled && up.types.includes('image'), number_limits: up.max_count, detail: up.image_detail, transfer_methods: ['local_file'] },
    },
    system_parameters: { file_size_limit: uploadMaxMb, image_file_size_limit: uploadMaxMb, audio_file_size_limit: uploadMaxMb, video_file_size_limit: uploadMaxMb },
  };
}
