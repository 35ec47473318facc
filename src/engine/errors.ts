import type { RunError } from '../../schemas/run';
import { NodeExecutionError } from '../plugin-sdk/executor';

/**
 * The engine's error codes (in run events' `error.code` and compile issues). Kept here rather than
 * in schemas/errors.ts, which lists the HTTP answer codes; the browser maps these to texts.
 */
export const RUN_ERRORS = {
  /** The flow does not pass the registry's checks (issues carry the plugin's i18n key). */
  FLOW_INVALID: 'RUN-1000',
  /** No start node, or more than one, at the top level. */
  START_MISSING: 'RUN-1001',
  START_DUPLICATE: 'RUN-1002',
  /** Nodes form a cycle outside a loop container. */
  CYCLE: 'RUN-1003',
  /** A node cannot be reached from its start node. */
  UNREACHABLE: 'RUN-1004',
  /** No executor is registered for a node kind. */
  EXECUTOR_MISSING: 'RUN-1005',
  /** A container has no start node inside. */
  CONTAINER_START_MISSING: 'RUN-1006',
  /** An edge joins nodes that are missing or in different containers. */
  EDGE_INVALID: 'RUN-1007',
  /** An executor threw something without a code. */
  NODE_FAILED: 'RUN-1100',
  /** A try took longer than the node's `timeoutMs`. */
  NODE_TIMEOUT: 'RUN-1101',
  /** An executor returned something that is not `{ outputs: {...} }`. */
  NODE_RESULT_INVALID: 'RUN-1102',
  /** A node wrote a variable it may not (`ctx.assign`). */
  ASSIGN_INVALID: 'RUN-1103',
  /** An iteration round failed (error mode `terminated`). */
  ITERATION_FAILED: 'RUN-1104',
  /** A container was asked to iterate over something that is not an array. */
  ITERATION_INPUT_INVALID: 'RUN-1105',
  /** Stopped by the caller (stop button). */
  CANCELLED: 'RUN-1200',
  /** Cut short because another node failed the run. */
  ABORTED: 'RUN-1201',
  STEP_LIMIT: 'RUN-1300',
  DEPTH_LIMIT: 'RUN-1301',
  TIME_LIMIT: 'RUN-1302',
} as const;
export type RunErrorCode = (typeof RUN_ERRORS)[keyof typeof RUN_ERRORS];

/** Ends the whole run (stop, limits): never handled by a node's error strategy or retried. */
export class RunAbort extends Error {
  constructor(
    readonly code: RunErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'RunAbort';
  }
}

/** A node failed with no error strategy: fails its scope (the run, or an iteration round). */
export class NodeFailure extends Error {
  constructor(readonly error: RunError) {
    super(error.message);
    this.name = 'NodeFailure';
  }
}

/** Any thrown value as a run error. */
export function toRunError(e: unknown, nodeId?: string): RunError {
  const at = nodeId ? { nodeId } : {};
  if (e instanceof NodeFailure) return e.error;
  if (e instanceof RunAbort || e instanceof NodeExecutionError) return { code: e.code, message: e.message, ...at };
  if (e instanceof Error) return { code: RUN_ERRORS.NODE_FAILED, message: e.message || e.name, ...at };
  return { code: RUN_ERRORS.NODE_FAILED, message: String(e), ...at };
}

/**
 * An abort controller in a tree: aborting it aborts its children, through a plain set of callbacks
 * rather than `abort` listeners, so a thousand parallel nodes do not pile listeners on one signal.
 * The AbortSignal itself is made only when someone asks for it (an executor reading `ctx.signal`):
 * most nodes never do, and making one per node is a large share of the engine's overhead.
 * Every engine abort goes through `abort`.
 */
export class AbortScope {
  private controller: AbortController | undefined;
  private hooks: Set<() => void> | undefined;
  private readonly detach: (() => void) | undefined;
  private done = false;
  private why: unknown;

  constructor(parent?: AbortScope) {
    if (parent) this.detach = parent.onAbort(() => this.abort(parent.reason));
  }

  get aborted(): boolean {
    return this.done;
  }

  get reason(): unknown {
    return this.why;
  }

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.done) this.controller.abort(this.why);
    }
    return this.controller.signal;
  }

  abort(reason: unknown): void {
    if (this.done) return;
    this.done = true;
    this.why = reason;
    this.controller?.abort(reason);
    const hooks = this.hooks;
    this.hooks = undefined;
    if (hooks) for (const h of hooks) h();
  }

  /** Calls `fn` on abort (at once if aborted already); returns the way to take it back. */
  onAbort(fn: () => void): () => void {
    if (this.done) {
      fn();
      return () => {};
    }
    (this.hooks ??= new Set()).add(fn);
    return () => this.hooks?.delete(fn);
  }

  /** Unhooks from the parent (call when done, so long runs do not keep finished scopes). */
  dispose(): void {
    this.detach?.();
  }
}
