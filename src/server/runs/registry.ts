import type { ServerContext } from '../context';
import { answerStops } from './stop';

/** A run going on in this process. */
export interface ActiveRun {
  runId: string;
  tenantId: string;
  appId: string;
  /** Who started it (the portal stops only the user's own runs). */
  userId?: string;
  /** Where it was started (debug, portal, api…): a resumed portal or API stream reads only its own kind. */
  source?: string;
  controller: AbortController;
}

/** Whom a stopped run must belong to: the tenant's app and, with `userId`, that user's run. */
export interface StopScope {
  tenantId: string;
  appId: string;
  userId?: string;
}

/**
 * The runs going on in this process, with the AbortController that stops each. A stop that does
 * not find its run here goes to the other processes over the run bus (./stop.ts); each registry
 * answers those for its own runs.
 */
export class RunRegistry {
  private readonly runs = new Map<string, ActiveRun>();
  /** Called when the last run is removed (stopAll waits on these). */
  private emptied: (() => void)[] = [];

  add(run: ActiveRun): void {
    this.runs.set(run.runId, run);
  }

  /** The run ended and is stored (its final state written). */
  remove(runId: string): void {
    this.runs.delete(runId);
    if (this.runs.size) return;
    const waiting = this.emptied;
    this.emptied = [];
    for (const w of waiting) w();
  }

  has(runId: string): boolean {
    return this.runs.has(runId);
  }

  /**
   * Whether the run goes on here and belongs to the tenant's app (and, with `userId` and `source`,
   * was started by that user from there).
   */
  owns(runId: string, scope: StopScope & { source?: string }): boolean {
    const r = this.runs.get(runId);
    if (!r || r.tenantId !== scope.tenantId || r.appId !== scope.appId) return false;
    return (scope.userId === undefined || r.userId === scope.userId) && (scope.source === undefined || r.source === scope.source);
  }

  get size(): number {
    return this.runs.size;
  }

  /**
   * Stops the run if it goes on here and belongs to the tenant's app (and, with `userId`, was
   * started by that user); true when it was stopped.
   */
  stop(runId: string, scope: StopScope): boolean {
    const r = this.runs.get(runId);
    if (!r || r.tenantId !== scope.tenantId || r.appId !== scope.appId || r.controller.signal.aborted) return false;
    if (scope.userId !== undefined && r.userId !== scope.userId) return false;
    r.controller.abort();
    return true;
  }

  /**
   * Server shutdown: every run ends as stopped. Resolves once they are stored (each is removed
   * after its final state is written), or after `timeoutMs` for a run whose write hangs: the
   * sweep of the next start ends that one as interrupted.
   */
  async stopAll(timeoutMs = 5000): Promise<void> {
    for (const r of this.runs.values()) r.controller.abort();
    if (!this.runs.size) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      new Promise<void>((resolve) => this.emptied.push(resolve)),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs))),
    ]);
    clearTimeout(timer);
  }
}

const registries = new WeakMap<ServerContext, RunRegistry>();

/** The registry of a server (one per context, so several servers in one process stay apart). */
export function runRegistry(ctx: ServerContext): RunRegistry {
  let r = registries.get(ctx);
  if (!r) {
    const made = (r = new RunRegistry());
    registries.set(ctx, r);
    answerStops(ctx, (runId, scope) => made.stop(runId, scope));
  }
  return r;
}
