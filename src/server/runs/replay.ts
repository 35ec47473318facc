import { and, asc, eq, gt, sql } from 'drizzle-orm';
import type { ServerContext } from '../context';
import { runEvents, runs } from '../db/schema';
import { runEventLog } from './event-log';
import { storedEnd } from './resume-end';

/** Rows read per query. */
const PAGE = 500;
/** How often a reader looks at the log without being told (a lost notification, a lost LISTEN connection). */
const POLL_MS = 1000;
/**
 * Looks without a new row after which a run stored as ended is taken as complete: its last batch of
 * events may land just after its row's end (the log is written beside the run, not before it).
 */
const ENDED_LOOKS = 2;

const TERMINAL = new Set(['run_finished', 'run_failed']);

/** One event of a run's log, as stored: its number in the run, its type and its JSON text. */
export interface LoggedEvent {
  seq: number;
  type: string;
  text: string;
}

/**
 * A run's console stream from its durable log (issue 34): the frames of {@link replayEvents}, with the
 * same ids and text the live stream sent, so a reconnecting client neither loses nor repeats an event.
 */
export async function* replayRun(ctx: ServerContext, runId: string, after: number, signal: AbortSignal): AsyncGenerator<string> {
  // A comment line first: the headers go out now, even when the next event is a while away.
  yield ': resumed\n\n';
  let ended = false;
  for await (const r of replayEvents(ctx, runId, after, signal)) {
    yield `event: ${r.type}\nid: ${r.seq}\ndata: ${r.text}\n\n`;
    after = r.seq;
    ended = TERMINAL.has(r.type);
  }
  if (ended || signal.aborted) return;
  // A run whose stream was not logged (a blocking public-API, OpenAI or MCP run: launch.ts `logEvents`)
  // still shows how it ended: its end rebuilt from the stored run, as the portal and Dify resumes do.
  const end = await storedEnd(ctx, runId, signal);
  if (end && end.seq > after) yield `event: ${end.event.type}\nid: ${end.seq}\ndata: ${JSON.stringify(end.event)}\n\n`;
}

/**
 * A run's events from its durable log (issue 34), after the event numbered `after` (the client's
 * Last-Event-ID; -1 for the whole stream): the rows there now, then each batch as the bus says it
 * landed, on whichever process wrote it. Each surface (console, portal, public API) frames them as
 * its live stream does. Ends after `run_finished` / `run_failed`, when `signal` aborts (the client
 * went away), or when the run is stored as ended and nothing more comes.
 */
export async function* replayEvents(ctx: ServerContext, runId: string, after: number, signal: AbortSignal): AsyncGenerator<LoggedEvent> {
  let told = false;
  let wake: (() => void) | undefined;
  // Listening starts before the first read, so a batch that lands between the two is not missed.
  const off = ctx.bus.subscribe('weft_run_events', (ids) => {
    if (!ids.includes(runId)) return;
    told = true;
    wake?.();
  });
  const onAbort = () => wake?.();
  signal.addEventListener('abort', onAbort);
  // What this process has queued for the log goes in first (a reconnect to the same process).
  await runEventLog(ctx).flush();
  try {
    let endedLooks = 0;
    while (!signal.aborted) {
      told = false;
      const rows = await ctx.db
        .select({ seq: runEvents.seq, type: sql<string>`${runEvents.event}->>'type'`, text: sql<string>`${runEvents.event}::text` })
        .from(runEvents)
        .where(and(eq(runEvents.runId, runId), gt(runEvents.seq, after)))
        .orderBy(asc(runEvents.seq))
        .limit(PAGE);
      let sent = 0;
      for (const r of rows) {
        // The log is written in order, one batch at a time: a gap means a batch is still on its way
        // (or its write failed: then the run's stored end closes the stream).
        if (r.seq !== after + 1) break;
        yield r;
        after = r.seq;
        sent++;
        if (TERMINAL.has(r.type)) return;
      }
      if (sent) {
        endedLooks = 0;
        if (sent === PAGE) continue;
      } else if (!told) {
        const [run] = await ctx.db.select({ status: runs.status }).from(runs).where(eq(runs.id, runId));
        if (run && run.status !== 'running' && ++endedLooks >= ENDED_LOOKS) return;
      }
      if (told || signal.aborted) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, endedLooks ? POLL_MS / 4 : POLL_MS);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
    }
  } finally {
    off();
    signal.removeEventListener('abort', onAbort);
  }
}
