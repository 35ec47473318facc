/**
 * A node's timeout that stands still while the node waits for a shared resource
 * (`ExecutionContext.waiting`, e.g. a free code sandbox): waiting is not running, so a node queued
 * behind others is timed from when its work starts (issue 34: runs queued for a sandbox failed with
 * RUN-1101 without having run). `ms` of 0 or less: no limit.
 */
export class NodeTimer {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private left: number;
  private since = 0;
  private ended = false;

  constructor(
    ms: number,
    private readonly fire: () => void,
  ) {
    this.left = ms;
    if (ms > 0) this.start();
    else this.ended = true;
  }

  private start() {
    this.since = performance.now();
    this.timer = setTimeout(() => {
      this.ended = true;
      this.fire();
    }, Math.max(0, this.left));
  }

  /** Stops the clock (the node waits); what is left is kept. */
  pause(): void {
    if (!this.timer) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.left -= performance.now() - this.since;
  }

  /** Runs the clock on with what was left. */
  resume(): void {
    if (this.timer || this.ended) return;
    this.start();
  }

  /** The node ended: the timeout will not fire. */
  stop(): void {
    this.ended = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}

/** A wait an executor reports, cleaned (it comes from plugin code). */
export function cleanWait(w: { reason?: unknown; ahead?: unknown }): { reason: 'sandbox'; ahead: number } {
  const ahead = typeof w.ahead === 'number' && Number.isFinite(w.ahead) ? Math.max(0, Math.floor(w.ahead)) : 0;
  return { reason: 'sandbox', ahead };
}
