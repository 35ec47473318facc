import { and, eq } from 'drizzle-orm';
import type { Citation } from '../../../schemas/portal';
import type { RunEvent } from '../../../schemas/run';
import { UUID_RE, type ServerContext } from '../context';
import { appVersions, runs } from '../db/schema';
import { runRegistry } from '../runs/registry';
import { replayEvents } from '../runs/replay';
import { runMessage, storedEnd } from '../runs/resume-end';
import type { VerifiedKey } from '../security/api-keys';
import { endUserCaller, keyTarget, notFound } from './dify-runs';
import { difyBase, endFrames, framesOf, predecessors, retrieverResources, type DifyFraming } from './dify-stream';
import { requireMode } from './target';

/** How long a resume waits for the row of a run that goes on in this process (its first write may be on its way). */
const ROW_WAIT_MS = 5000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * GET /v1/chat-messages/{task_id}/events and /v1/workflows/tasks/{task_id}/events (issue 34): the
 * end user's API run streamed again, on any process, after the client's Last-Event-ID, as Dify's
 * frames with the ids the live stream gave them. The same checks as the stop calls: the key's app
 * (of the route's kind) and a run of that end user through the API; anything else is Dify's 404.
 */
export async function difyResume(
  ctx: ServerContext,
  key: VerifiedKey,
  taskId: string,
  user: string,
  chat: boolean,
  after: number,
  signal: AbortSignal,
): Promise<AsyncGenerator<string>> {
  const target = await keyTarget(ctx, key);
  requireMode(target, chat);
  const caller = endUserCaller(target, user);
  if (!UUID_RE.test(taskId)) throw notFound('Task', taskId);
  const read = () =>
    ctx.db
      .select({ versionId: runs.versionId, createdAt: runs.createdAt })
      .from(runs)
      .where(and(eq(runs.id, taskId), eq(runs.appId, target.app.id), eq(runs.createdBy, caller.userId), eq(runs.source, 'api')))
      .then((rows) => rows[0]);
  let row = await read();
  // A run of this process may not be stored yet (its first write waits for the first token).
  const here = { tenantId: target.app.tenantId, appId: target.app.id, userId: caller.userId, source: 'api' };
  for (const until = Date.now() + ROW_WAIT_MS; !row && runRegistry(ctx).owns(taskId, here) && Date.now() < until; ) {
    await sleep(50);
    row = await read();
  }
  if (!row) throw notFound('Task', taskId);
  const [version] = row.versionId ? await ctx.db.select({ document: appVersions.document }).from(appVersions).where(eq(appVersions.id, row.versionId)) : [];
  const m = chat ? await runMessage(ctx, taskId) : undefined;
  const framing: DifyFraming = {
    ids: { runId: taskId, ...(m ? { messageId: m.id, conversationId: m.conversationId } : {}) },
    chat,
    versionId: row.versionId ?? '',
    at: row.createdAt.getTime(),
    edges: (version?.document as { edges?: DifyFraming['edges'] } | undefined)?.edges ?? [],
  };
  return difyReplay(ctx, framing, target.features.citations, after, signal);
}

async function* difyReplay(ctx: ServerContext, r: DifyFraming, citations: boolean, after: number, signal: AbortSignal): AsyncGenerator<string> {
  // A keep-alive first (Dify's ping): the headers go out now, even when the next event is a while away.
  yield 'event: ping\n\n';
  const base = difyBase(r);
  const before = predecessors(r);
  for await (const e of replayEvents(ctx, r.ids.runId, after, signal)) {
    after = e.seq;
    // run_created and the events Dify does not show have no frame.
    if (e.type === 'run_created') continue;
    const out = framesOf(r, JSON.parse(e.text) as RunEvent, e.seq, base, before);
    if (out) yield out;
  }
  if (signal.aborted) return;
  const end = await storedEnd(ctx, r.ids.runId, signal);
  if (!end) return;
  const ev = end.event;
  const result = { ...ev, status: ev.type === 'run_finished' ? ('succeeded' as const) : ev.status };
  const m = citations && r.chat ? await runMessage(ctx, r.ids.runId) : undefined;
  yield* endFrames(r, result, m ? retrieverResources(m.citations as Citation[]) : [], end.seq, after);
}
