/**
 * Who may use a sandbox worker next. Jobs carry their caller (tenant and user); the scheduler
 * hands out at most `slots` leases at once and keeps the rest in a queue:
 *
 * - a user runs at most `perUser` jobs at once and a tenant at most `perTenant`;
 * - the last free worker goes only to a tenant that runs nothing, so one tenant never holds every
 *   worker and another tenant's job starts at once even while the first floods the sandbox;
 * - when a worker frees, the waiting tenant with the fewest running jobs goes first, and within a
 *   tenant jobs go in the order they came (a job whose user is at the cap is passed over);
 * - a job that waits longer than `queueTimeoutMs` leaves the queue with reason `timeout`.
 *
 * Plain bookkeeping, no workers: sandbox.ts takes a lease before it gives a job a worker.
 */

/** Whose job it is. Jobs without one (tests, internal use) share one anonymous caller. */
export interface SandboxCaller {
  tenantId: string;
  userId: string;
}

export interface SchedulerLimits {
  /** Workers: leases out at once. */
  slots: number;
  perTenant: number;
  perUser: number;
  /** Longest wait in the queue. */
  queueTimeoutMs: number;
}

/** Where a queued job stands: `ahead` jobs of its tenant came before it and still wait. */
export interface QueuePosition {
  ahead: number;
}

export interface AdmitOptions {
  signal?: AbortSignal;
  /** Called when the job has to wait, when its place changes, and with null when a worker takes it. */
  onQueue?: (position: QueuePosition | null) => void;
}

export type Admission =
  | { ok: true; waitedMs: number; release(): void }
  | { ok: false; reason: 'timeout' | 'aborted' | 'closed'; waitedMs: number };

export interface SandboxScheduler {
  admit(caller: SandboxCaller, opts?: AdmitOptions): Promise<Admission>;
  /** Fails every queued job with `closed`; leases already out stay valid. */
  close(): void;
  /** Leases out and jobs waiting (tests, diagnostics). */
  readonly running: number;
  readonly waiting: number;
}

interface Ticket {
  caller: SandboxCaller;
  at: number;
  /** The last place reported (-1: none yet). */
  ahead: number;
  onQueue?: (position: QueuePosition | null) => void;
  settle(admission: Admission): void;
  timer?: NodeJS.Timeout;
  signal?: AbortSignal;
  onAbort?: () => void;
}

const userKey = (c: SandboxCaller) => `${c.tenantId}\u0000${c.userId}`;

export function createSandboxScheduler(limits: SchedulerLimits): SandboxScheduler {
  const { slots, perTenant, perUser, queueTimeoutMs } = limits;
  const byTenant = new Map<string, number>();
  const byUser = new Map<string, number>();
  const queue: Ticket[] = [];
  let running = 0;
  let closed = false;

  const count = (m: Map<string, number>, k: string) => m.get(k) ?? 0;
  const bump = (m: Map<string, number>, k: string, by: number) => {
    const n = count(m, k) + by;
    if (n > 0) m.set(k, n);
    else m.delete(k);
  };

  function eligible(t: Ticket): boolean {
    if (running >= slots) return false;
    const tenant = count(byTenant, t.caller.tenantId);
    if (tenant >= perTenant || count(byUser, userKey(t.caller)) >= perUser) return false;
    // Keep the last free worker for a tenant that has nothing running.
    return !(slots > 1 && running === slots - 1 && tenant > 0);
  }

  /** The queued job to start next: fewest running jobs of its tenant, then the earliest. */
  function pick(): number {
    let best = -1;
    let bestRunning = Infinity;
    queue.forEach((t, i) => {
      if (!eligible(t)) return;
      const r = count(byTenant, t.caller.tenantId);
      if (r < bestRunning) {
        best = i;
        bestRunning = r;
      }
    });
    return best;
  }

  function unwatch(t: Ticket) {
    clearTimeout(t.timer);
    if (t.onAbort) t.signal?.removeEventListener('abort', t.onAbort);
  }

  function grant(t: Ticket) {
    unwatch(t);
    running++;
    bump(byTenant, t.caller.tenantId, 1);
    bump(byUser, userKey(t.caller), 1);
    let released = false;
    if (t.ahead >= 0) t.onQueue?.(null);
    t.settle({
      ok: true,
      waitedMs: Math.round(performance.now() - t.at),
      release() {
        if (released) return;
        released = true;
        running--;
        bump(byTenant, t.caller.tenantId, -1);
        bump(byUser, userKey(t.caller), -1);
        dispatch();
      },
    });
  }

  /** Tells each waiting job its place when it changed. */
  function report() {
    const seen = new Map<string, number>();
    for (const t of queue) {
      const ahead = count(seen, t.caller.tenantId);
      seen.set(t.caller.tenantId, ahead + 1);
      if (ahead !== t.ahead) {
        t.ahead = ahead;
        t.onQueue?.({ ahead });
      }
    }
  }

  function dispatch() {
    for (let i = pick(); i >= 0; i = pick()) grant(queue.splice(i, 1)[0]!);
    report();
  }

  function leave(t: Ticket, reason: 'timeout' | 'aborted' | 'closed') {
    const i = queue.indexOf(t);
    if (i < 0) return;
    queue.splice(i, 1);
    unwatch(t);
    t.settle({ ok: false, reason, waitedMs: Math.round(performance.now() - t.at) });
    report();
  }

  return {
    admit(caller, opts = {}) {
      if (closed) return Promise.resolve({ ok: false, reason: 'closed', waitedMs: 0 });
      if (opts.signal?.aborted) return Promise.resolve({ ok: false, reason: 'aborted', waitedMs: 0 });
      return new Promise<Admission>((settle) => {
        const t: Ticket = { caller, at: performance.now(), ahead: -1, settle, ...(opts.onQueue ? { onQueue: opts.onQueue } : {}) };
        queue.push(t);
        dispatch();
        if (!queue.includes(t)) return;
        t.timer = setTimeout(() => leave(t, 'timeout'), queueTimeoutMs);
        if (opts.signal) {
          t.signal = opts.signal;
          t.onAbort = () => leave(t, 'aborted');
          opts.signal.addEventListener('abort', t.onAbort, { once: true });
        }
      });
    },
    close() {
      closed = true;
      for (const t of [...queue]) leave(t, 'closed');
    },
    get running() {
      return running;
    },
    get waiting() {
      return queue.length;
    },
  };
}
