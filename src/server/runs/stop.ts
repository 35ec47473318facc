import { randomUUID } from 'node:crypto';
import type { ServerContext } from '../context';
import { runRegistry, type StopScope } from './registry';

/**
 * How long a stop waits for the process that runs the run to answer. Only a run stored as `running`
 * that no process answers for waits it whole (its process died; the sweep will end it).
 */
const ANSWER_MS = 1500;

/** What goes on the bus: the run, whom it must belong to, and the nonce its answer names. */
interface StopMessage {
  runId: string;
  scope: StopScope;
  nonce: string;
}

/**
 * Stops a run wherever it goes on (issue 34): in this process at once; otherwise the request goes
 * on the bus (`weft_run_stop`) and the process running it (which checks the same scope) answers on
 * `weft_run_stopped`. True when some process stopped it; false when none answered in time (it had
 * ended, or its process is gone: the sweep ends such a run as interrupted). Callers check first
 * that the run is the caller's and still `running` in the database, so a finished run costs no wait.
 */
export async function stopRunAnywhere(ctx: ServerContext, runId: string, scope: StopScope): Promise<boolean> {
  if (runRegistry(ctx).stop(runId, scope)) return true;
  const nonce = randomUUID();
  let off = () => {};
  let timer: NodeJS.Timeout | undefined;
  const answered = new Promise<boolean>((resolve) => {
    off = ctx.bus.subscribe('weft_run_stopped', (p) => p === nonce && resolve(true));
    timer = setTimeout(() => resolve(false), ANSWER_MS);
  });
  try {
    const message: StopMessage = { runId, scope, nonce };
    await ctx.bus.publish('weft_run_stop', JSON.stringify(message));
    return await answered;
  } finally {
    clearTimeout(timer);
    off();
  }
}

/** The registry's side: stops the named run if it goes on here, and says so to whoever asked. */
export function answerStops(ctx: ServerContext, stop: (runId: string, scope: StopScope) => boolean): void {
  ctx.bus.subscribe('weft_run_stop', (payload) => {
    let m: StopMessage;
    try {
      m = JSON.parse(payload) as StopMessage;
    } catch {
      return;
    }
    if (stop(m.runId, m.scope)) ctx.bus.publish('weft_run_stopped', m.nonce).catch((e) => console.error('[weft] answering a stop failed:', e));
  });
}
