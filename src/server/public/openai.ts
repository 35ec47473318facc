import { createHash, randomUUID } from 'node:crypto';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { ChatCompletion, ChatCompletionBody, ChatCompletionChunk, OpenAiMessage } from '../../../schemas/public-api';
import type { ServerContext } from '../context';
import { conversations, messages } from '../db/schema';
import { badRequest } from '../errors';
import { rowsOf } from '../knowledge/queue';
import type { RunResult } from '../../engine';
import { nameOf, startRun, type RunRequest } from '../runs/launch';
import type { VerifiedKey } from '../security/api-keys';
import { endUserCaller, keyTarget, type ApiRun } from './dify-runs';
import { requireMode } from './target';

/**
 * OpenAI's chat completions over a chat app: the last user message is the question; the user and
 * assistant turns before it are the conversation so far. Weft keeps conversations (the flow's
 * memory reads them), so a request continues the API conversation whose turns hash to exactly the
 * ones sent (`conversations.history_hash`, set after each answer); turns that match none (a client's
 * own history, an edited one) start a conversation holding them, then the question is asked in it.
 * System and developer messages are left out: the app has its own instructions. The end user is
 * the request's `user`, else `openai`.
 */

const DEFAULT_USER = 'openai';
type Turn = [question: string, answer: string];

function textOf(m: OpenAiMessage, i: number): string {
  if (m.content === null || m.content === undefined) return '';
  if (typeof m.content === 'string') return m.content;
  if (m.content.some((p) => p.type !== 'text')) throw badRequest('Only text content is taken', [{ path: `body/messages/${i}/content`, message: 'text parts only' }]);
  return m.content.map((p) => p.text).join('');
}

/** The question and the turns before it (unanswered questions before the last are asked with it). */
export function splitMessages(list: OpenAiMessage[]): { query: string; turns: Turn[] } {
  const turns: Turn[] = [];
  let asked: string[] = [];
  list.forEach((m, i) => {
    if (m.role === 'user') asked.push(textOf(m, i));
    else if (m.role === 'assistant') {
      turns.push([asked.join('\n\n'), textOf(m, i)]);
      asked = [];
    }
  });
  const last = [...list].reverse().find((m) => m.role === 'user' || m.role === 'assistant');
  if (!last || last.role !== 'user' || !asked.join('').trim()) {
    throw badRequest('The last message must be a user message with text (the question)', [{ path: 'body/messages', message: 'ends with a user message' }]);
  }
  return { query: asked.join('\n\n'), turns };
}

export const historyHash = (turns: readonly Turn[]) => createHash('sha256').update(JSON.stringify(turns)).digest('hex');

export interface CompletionRun extends ApiRun {
  model: string;
  /** The turns including this one's question (its answer is added once known). */
  turns: Turn[];
  query: string;
}

export async function startCompletion(ctx: ServerContext, key: VerifiedKey, body: ChatCompletionBody, log: (e: unknown) => void): Promise<CompletionRun> {
  const target = await keyTarget(ctx, key);
  requireMode(target, true);
  const { query, turns } = splitMessages(body.messages);
  const user = body.user ?? DEFAULT_USER;
  const caller = endUserCaller(target, user);
  const { app } = target;
  let conversation: RunRequest['conversation'];
  if (turns.length) {
    const [found] = await ctx.db
      .select({ id: conversations.id, variables: conversations.variables })
      .from(conversations)
      .where(and(eq(conversations.appId, app.id), eq(conversations.historyHash, historyHash(turns)), eq(conversations.createdBy, caller.userId), eq(conversations.source, 'api')))
      .orderBy(desc(conversations.updatedAt))
      .limit(1);
    if (found) conversation = found;
    else {
      // The client's own history: a conversation that holds it, so the flow's memory reads it.
      const id = randomUUID();
      const variables = target.flow.plan.conversationDefaults;
      const start = Date.now() - turns.length;
      await ctx.db.transaction(async (tx) => {
        await tx.insert(conversations).values({
          id,
          tenantId: app.tenantId,
          workspaceId: app.workspaceId,
          appId: app.id,
          source: 'api',
          name: nameOf(turns[0]![0] || query),
          variables,
          versionId: target.flow.versionId,
          createdBy: caller.userId,
          endUser: user,
        });
        await tx.insert(messages).values(
          turns.map(([q, a], i) => ({ id: randomUUID(), conversationId: id, query: q, answer: a, status: 'succeeded' as const, createdBy: caller.userId, createdAt: new Date(start + i) })),
        );
      });
      conversation = { id, variables };
    }
  }
  const req: RunRequest = {
    flow: target.flow,
    source: 'api',
    userId: caller.userId,
    endUser: user,
    kind: 'chat',
    query,
    inputs: {},
    files: [],
    ...(conversation ? { conversation } : { newConversation: { source: 'api' as const } }),
    // Not streamed, its id reaches the client only with its answer: no stream to resume, none logged.
    // A streamed one keeps its log: its chunks carry the run id, which Dify's chat resume route takes.
    logEvents: body.stream === true,
  };
  return { started: await startRun(ctx, req, log), target, model: body.model, turns, query };
}

/** Once answered: the conversation is found again by the turns the client will send next. */
export async function rememberTurns(ctx: ServerContext, run: CompletionRun, result: RunResult): Promise<void> {
  const id = run.started.created.conversationId;
  if (!id || result.status !== 'succeeded') return;
  await ctx.db
    .update(conversations)
    .set({ historyHash: historyHash([...run.turns, [run.query, result.answer]]) })
    .where(eq(conversations.id, id));
}

const completionId = (run: CompletionRun) => `chatcmpl-${run.started.created.runId}`;
const seconds = () => Math.floor(Date.now() / 1000);

export function completionOf(run: CompletionRun, result: RunResult): ChatCompletion {
  return {
    id: completionId(run),
    object: 'chat.completion',
    created: seconds(),
    model: run.model,
    choices: [{ index: 0, message: { role: 'assistant', content: result.answer, refusal: null }, logprobs: null, finish_reason: 'stop' }],
    usage: { prompt_tokens: result.usage.promptTokens, completion_tokens: result.usage.completionTokens, total_tokens: result.usage.totalTokens },
    conversation_id: run.started.created.conversationId!,
  };
}

/** The answer as OpenAI's `chat.completion.chunk` frames, then `[DONE]` (a failed run: an `error` frame first). */
export async function* completionStream(ctx: ServerContext, run: CompletionRun): AsyncGenerator<string> {
  const created = seconds();
  const chunk = (delta: ChatCompletionChunk['choices'][number]['delta'], finish: 'stop' | null = null): string => {
    const c: ChatCompletionChunk = { id: completionId(run), object: 'chat.completion.chunk', created, model: run.model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] };
    return `data: ${JSON.stringify(c)}\n\n`;
  };
  yield chunk({ role: 'assistant', content: '' });
  for await (const e of run.started.execution) if (e.type === 'answer_chunk') yield chunk({ content: e.text });
  const result = await run.started.stored;
  if (result.status === 'failed') {
    yield `data: ${JSON.stringify({ error: { message: result.error?.message ?? 'The run failed', type: 'server_error', code: result.error?.code ?? 'RUN-1100', param: null } })}\n\n`;
  } else {
    await rememberTurns(ctx, run, result);
    yield chunk({}, 'stop');
  }
  yield 'data: [DONE]\n\n';
}

/** GET /v1/models: the key's app, as the one model. */
export async function listModels(ctx: ServerContext, key: VerifiedKey) {
  const { app } = await keyTarget(ctx, key);
  const [row] = rowsOf<{ t: number | string }>(await ctx.db.execute(sql`select extract(epoch from created_at)::bigint as t from apps where id = ${app.id}::uuid`));
  return { object: 'list' as const, data: [{ id: app.id, object: 'model' as const, created: Number(row?.t ?? 0), owned_by: 'weft' }] };
}
