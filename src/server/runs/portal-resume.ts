import { and, eq } from 'drizzle-orm';
import type { Citation } from '../../../schemas/portal';
import type { RunEvent } from '../../../schemas/run';
import { UUID_RE, type Caller, type ServerContext } from '../context';
import { runs } from '../db/schema';
import { notFoundOrForeign } from '../errors';
import { sseFrame } from './event-log';
import { portalTarget, type PortalTarget } from './portal-access';
import { messageEndFrame, portalEvent } from './portal-run';
import { runRegistry } from './registry';
import { replayEvents } from './replay';
import { runMessage, storedEnd } from './resume-end';

/** Event types the portal shows changed (portalEvent); the others go out as logged. */
const RESHAPED = new Set(['node_chunk', 'node_started', 'node_finished', 'node_failed', 'loop_next']);

/**
 * GET /portal/{portal_id}/runs/{run_id}/events (issue 34): a portal run's stream again, on any
 * process, after the client's Last-Event-ID. The same checks as the run's own stream (the user may
 * use the app, and the run is theirs, from the portal: anyone else's answers VALIDATION-1000), then
 * the same frames with the same ids, and for chat the closing `message_end`.
 */
export async function portalResume(ctx: ServerContext, caller: Caller, appId: string, runId: string, after: number, signal: AbortSignal): Promise<AsyncGenerator<string>> {
  const target = await portalTarget(ctx, caller, appId);
  if (!UUID_RE.test(runId)) throw notFoundOrForeign('Run', runId);
  // A run of this process may not be stored yet (its first write waits on the database).
  if (!runRegistry(ctx).owns(runId, { tenantId: caller.tenantId, appId, userId: caller.userId, source: 'portal' })) {
    const [row] = await ctx.db
      .select({ id: runs.id })
      .from(runs)
      .where(and(eq(runs.id, runId), eq(runs.appId, appId), eq(runs.tenantId, caller.tenantId), eq(runs.createdBy, caller.userId), eq(runs.source, 'portal')));
    if (!row) throw notFoundOrForeign('Run', runId);
  }
  return portalReplay(ctx, target, runId, after, signal);
}

async function* portalReplay(ctx: ServerContext, target: PortalTarget, runId: string, after: number, signal: AbortSignal): AsyncGenerator<string> {
  // A comment line first: the headers go out now, even when the next event is a while away.
  yield ': resumed\n\n';
  for await (const r of replayEvents(ctx, runId, after, signal)) {
    after = r.seq;
    if (!RESHAPED.has(r.type)) {
      yield `event: ${r.type}\nid: ${r.seq}\ndata: ${r.text}\n\n`;
      continue;
    }
    const shown = portalEvent(JSON.parse(r.text) as RunEvent);
    if (shown) yield sseFrame(shown, r.seq);
  }
  if (signal.aborted) return;
  const end = await storedEnd(ctx, runId, signal);
  // No end in the log, or the client already has message_end (numbered end.seq + 1).
  if (!end || after > end.seq) return;
  const m = await runMessage(ctx, runId);
  if (!m) return;
  const citations = target.features.citations ? (m.citations as Citation[]) : [];
  yield messageEndFrame({ type: 'message_end', messageId: m.id, conversationId: m.conversationId, citations, usage: end.event.usage }, end.seq + 1);
}
