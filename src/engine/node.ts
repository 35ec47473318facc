import { DEFAULT_SOURCE_HANDLE, FAIL_BRANCH_HANDLE } from '../../schemas/flow';
import type { RunError } from '../../schemas/run';
import { NodeExecutionError, type ExecutionContext, type NodeExecutionResult, type PeerNode } from '../plugin-sdk/executor';
import { retryDelay } from '../plugin-sdk/node-settings';
import type { PlanNode } from './compile';
import { containerRunner } from './containers';
import { AbortScope, NodeFailure, RUN_ERRORS, RunAbort, toRunError } from './errors';
import { cleanWait, NodeTimer } from './node-timer';
import { stringify, type VariablePool } from './pool';
import type { ScopeRun } from './scope';

/** A detached node as an executor sees it (`ctx.peer`). */
function peerOf(peers: ReadonlyMap<string, PlanNode>, id: string): PeerNode | undefined {
  const p = peers.get(id);
  return p ? { id: p.id, kind: p.kind, title: p.title, config: p.config } : undefined;
}

const NO_VALUES: Record<string, unknown> = Object.freeze({}) as Record<string, unknown>;

/** The trace inputs: the executor's own `inputs()`, or each config reference's value. */
function resolveInputs(node: PlanNode, pool: VariablePool): Record<string, unknown> {
  if (node.executor?.inputs) return node.executor.inputs(node.config, pool);
  if (!node.references.length) return NO_VALUES;
  const out: Record<string, unknown> = {};
  for (const r of node.references) out[r.key] = pool.get(r.selector);
  return out;
}

const isResult = (v: unknown): v is NodeExecutionResult => {
  const o = (v as NodeExecutionResult | null)?.outputs;
  const h = (v as NodeExecutionResult | null)?.handle;
  return typeof o === 'object' && o !== null && !Array.isArray(o) && (h === undefined || typeof h === 'string');
};

/** Waits, unless the scope aborts first (then rejects with its reason). */
function sleep(ms: number, abort: AbortScope): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      resolve();
    }, ms);
    const off = abort.onAbort(() => {
      clearTimeout(timer);
      reject(abort.reason);
    });
  });
}

/** Emits a node's wait (`node_waiting`): true with the place while it waits, false with its length at the end. */
type WaitEmitter = (wait: { reason: 'sandbox'; waiting: boolean; ahead: number; waitedMs?: number }) => void;

/**
 * One try of a node: the executor raced against the node's signal (stop, the run failing, the
 * timeout), so an executor that ignores its signal cannot hold the run. The timeout stands still
 * while the executor says it waits for a shared resource (`ctx.waiting`).
 */
function attempt(scope: ScopeRun, node: PlanNode, inputs: Record<string, unknown>, n: number, executionId: string, emitWait: WaitEmitter): Promise<NodeExecutionResult> {
  const run = scope.run;
  const { timeoutMs } = node.settings;
  // Each try has its own abort scope: stop and run failures reach it from the scope, the timeout
  // from its timer, and the executor listens to a signal nobody else shares.
  const abort = new AbortScope(scope.abort);
  const timer = new NodeTimer(timeoutMs, () => abort.abort(new NodeExecutionError(RUN_ERRORS.NODE_TIMEOUT, `The node took longer than ${timeoutMs} ms`)));
  let active = true;
  let waitStart: number | undefined;
  let ahead = -1;
  const ctx: ExecutionContext = {
    runId: run.runId,
    mode: run.plan.mode,
    node,
    config: node.config,
    inputs,
    runInputs: run.inputs,
    variables: scope.pool,
    // A getter: the AbortSignal is only made for executors that use it.
    get signal() {
      return abort.signal;
    },
    attempt: n,
    // Chunks from a try that was abandoned (timeout, stop) must not reach the stream.
    emitChunk: (text) => {
      if (active && typeof text === 'string' && text) scope.chunk(node, executionId, text);
    },
    waiting: (wait) => {
      if (!active) return;
      if (wait) {
        const w = cleanWait(wait);
        if (waitStart === undefined) {
          waitStart = performance.now();
          timer.pause();
        }
        if (w.ahead !== ahead) emitWait({ reason: w.reason, waiting: true, ahead: (ahead = w.ahead) });
      } else if (waitStart !== undefined) {
        const waitedMs = performance.now() - waitStart;
        waitStart = undefined;
        ahead = -1;
        timer.resume();
        emitWait({ reason: 'sandbox', waiting: false, ahead: 0, waitedMs });
      }
    },
    assign: (selector, value) => scope.assign(selector, value),
    services: run.servicesFor(node.kind),
    ...(node.body ? { container: containerRunner(scope, node, executionId, abort) } : {}),
    ...(run.plan.peers?.size ? { peer: (id: string) => peerOf(run.plan.peers, id) } : {}),
  };
  return new Promise<NodeExecutionResult>((resolve, reject) => {
    let off: (() => void) | undefined;
    const done = () => {
      active = false;
      timer.stop();
      off?.();
      abort.dispose();
    };
    off = abort.onAbort(() => {
      done();
      reject(abort.reason);
    });
    if (!active) return;
    let out: unknown;
    try {
      out = node.executor!.execute(ctx);
    } catch (e) {
      done();
      return reject(e);
    }
    Promise.resolve(out).then(
      (v) => {
        if (!active) return;
        done();
        if (isResult(v)) resolve(v);
        else reject(new NodeExecutionError(RUN_ERRORS.NODE_RESULT_INVALID, 'The executor returned no outputs object'));
      },
      (e) => {
        if (!active) return;
        done();
        reject(e);
      },
    );
  });
}

/** The reason a failure ends more than this node (stop, limits, the scope failing), if it does. */
function fatalOf(e: unknown, scope: ScopeRun): RunAbort | undefined {
  if (e instanceof RunAbort) return e;
  const reason: unknown = scope.abort.reason;
  if (scope.abort.aborted) return reason instanceof RunAbort ? reason : new RunAbort(RUN_ERRORS.ABORTED, 'Stopped');
  return undefined;
}

/**
 * Runs one node with its settings (retry with back-off, timeout per try, error strategy) and
 * emits its events. Resolves to the handle taken; rejects with a RunAbort (the run ends) or a
 * NodeFailure (no error strategy: the scope fails).
 */
export async function executeNode(scope: ScopeRun, node: PlanNode): Promise<string> {
  const run = scope.run;
  run.step();
  const executionId = run.nextExecutionId();
  const t0 = performance.now();
  const head = {
    executionId,
    nodeId: node.id,
    kind: node.kind,
    title: node.title,
    ...(node.parentId ? { parentId: node.parentId } : {}),
    scope: scope.frames,
  };
  let inputs = NO_VALUES;
  let error: unknown;
  try {
    inputs = resolveInputs(node, scope.pool);
  } catch (e) {
    error = e;
  }
  run.emit({ type: 'node_started', ...head, inputs });

  let result: NodeExecutionResult | undefined;
  let retries = 0;
  const stopped = (reason: RunAbort) => {
    run.emit({ type: 'node_failed', ...head, status: 'stopped', elapsedMs: performance.now() - t0, inputs, error: toRunError(reason, node.id), retries });
    return reason;
  };
  if (!node.executor) result = { outputs: NO_VALUES };
  else if (error === undefined) {
    for (let n = 0; ; n++) {
      try {
        result = await attempt(scope, node, inputs, n, executionId, (w) => run.emit({ type: 'node_waiting', ...head, ...w }));
        error = undefined;
        break;
      } catch (e) {
        error = e;
        const fatal = fatalOf(e, scope);
        if (fatal) throw stopped(fatal);
        if (n >= node.settings.retry.maxRetries) break;
        const delayMs = retryDelay(node.settings.retry, n + 1);
        retries++;
        run.emit({ type: 'node_retry', ...head, attempt: n + 1, delayMs, error: toRunError(e, node.id) });
        try {
          await sleep(delayMs, scope.abort);
        } catch (s) {
          throw stopped(fatalOf(s, scope)!);
        }
      }
    }
  }

  let outputs: Record<string, unknown>;
  let handle: string;
  let failure: RunError | undefined;
  if (result) {
    outputs = result.outputs;
    handle = result.handle ?? DEFAULT_SOURCE_HANDLE;
  } else {
    failure = toRunError(error, node.id);
    const strategy = node.settings.errorStrategy;
    if (strategy === 'none') {
      run.emit({ type: 'node_failed', ...head, status: 'failed', elapsedMs: performance.now() - t0, inputs, error: failure, retries });
      throw new NodeFailure(failure);
    }
    const why = { error_message: failure.message, error_code: failure.code };
    outputs = strategy === 'default-value' ? { ...node.settings.defaults, ...why } : why;
    handle = strategy === 'fail-branch' ? FAIL_BRANCH_HANDLE : DEFAULT_SOURCE_HANDLE;
  }

  scope.pool.set(node.id, outputs);
  if (result?.usage) run.addUsage(result.usage);
  if (scope.isRoot && node.executor?.providesRunOutputs) Object.assign(run.outputs, outputs);
  if (node.answer) {
    if (scope.streams) scope.streams.complete(node.local);
    else run.say(node.id, node.answer.segments.map((s) => ('text' in s ? s.text : stringify(scope.pool.get(s.selector)))).join(''));
  }
  run.emit({
    type: 'node_finished',
    ...head,
    status: failure ? 'exception' : 'succeeded',
    elapsedMs: performance.now() - t0,
    inputs,
    outputs,
    handle,
    ...(result?.usage ? { usage: result.usage } : {}),
    retries,
    ...(failure ? { error: failure } : {}),
  });
  return handle;
}
