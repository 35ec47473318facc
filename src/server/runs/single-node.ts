import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { NodeRunResult } from '../../../schemas/run-api';
import type { RunError } from '../../../schemas/run';
import { createSecretMasker, NodeTimer, RUN_ERRORS, toRunError, VariablePool, type PlanNode } from '../../engine';
import { NodeExecutionError, type ExecutionContext, type NodeExecutionResult } from '../../plugin-sdk/executor';
import type { ServerContext } from '../context';
import { nodeExecutions, runs } from '../db/schema';
import { badRequest } from '../errors';
import { loadDraftNode, type AppScope } from './app-flow';
import { runRegistry } from './registry';
import { buildExecutorServices } from './services';

const ROOTS = new Set(['sys', 'env', 'conversation']);

/** Puts `value` at `path` inside `target`, making the objects on the way. */
function setPath(target: Record<string, unknown>, path: string[], value: unknown) {
  let o = target;
  for (const k of path.slice(0, -1)) {
    const next = o[k];
    o = (o[k] = next && typeof next === 'object' && !Array.isArray(next) ? next : {}) as Record<string, unknown>;
  }
  o[path[path.length - 1]] = value;
}

/**
 * Runs one node of the draft alone (the inspector's "run this node"). The values of its references
 * come from `inputs`, keyed as the trace shows them (`nodeId.path`, `sys.query`, `conversation.x`);
 * everything else the node reads is absent. Retry and error strategy do not apply (the point is to
 * see the node's own result); its timeout does. Container nodes (iteration, loop) need their body
 * and cannot run alone. The run is stored (source `single-node`) and can be stopped like any run.
 * As in a whole run, the node gets the secret environment values in clear; what is stored and
 * answered has them masked (the engine's masker, as Run.emit applies it to events).
 */
export async function runSingleNode(
  ctx: ServerContext,
  s: AppScope,
  nodeId: string,
  inputs: Record<string, unknown>,
  chosenRunId?: string,
): Promise<NodeRunResult> {
  const flow = await loadDraftNode(ctx, s, nodeId);
  const { app, plan, node } = flow;
  if (!node.executor) throw badRequest(`Node "${nodeId}" does nothing when run alone`, [{ path: 'node_id', message: 'no executor' }]);

  const root = {
    sys: { files: [] as unknown[], user_id: s.caller.userId, app_id: app.id } as Record<string, unknown>,
    env: { ...plan.envDefaults, ...flow.env },
    conversation: structuredClone({ ...plan.conversationDefaults }) as Record<string, unknown>,
  };
  const outputsByNode = new Map<string, Record<string, unknown>>();
  for (const [key, value] of Object.entries(inputs)) {
    const [head, ...path] = key.split('.');
    if (!head || !path.length) continue;
    if (ROOTS.has(head)) setPath(root[head as 'sys'], path, value);
    else setPath(outputsByNode.get(head) ?? outputsByNode.set(head, {}).get(head)!, path, value);
  }
  const mask = createSecretMasker(Object.values(flow.env));
  const pool = new VariablePool(root);
  for (const [id, out] of outputsByNode) pool.set(id, out);

  const runId = chosenRunId ?? randomUUID();
  const userId = s.caller.userId;
  const startedAt = new Date();
  const nodeRowId = randomUUID();
  // The run and its node's row (running) go in together: a server that dies mid-node leaves both
  // for the sweep (./sweep.ts) to end as interrupted.
  const inserted = await ctx.db.transaction(async (tx) => {
    const made = await tx
      .insert(runs)
      .values({
        id: runId,
        tenantId: app.tenantId,
        workspaceId: app.workspaceId,
        appId: app.id,
        mode: app.mode,
        source: 'single-node',
        nodeId,
        query: mask.text(typeof root.sys.query === 'string' ? root.sys.query : ''),
        inputs: mask.value(inputs),
        createdBy: userId,
      })
      .onConflictDoNothing()
      .returning({ id: runs.id });
    if (made.length) {
      await tx.insert(nodeExecutions).values({
        id: nodeRowId,
        runId,
        executionId: 'x1',
        seq: 0,
        nodeId,
        kind: node.kind,
        title: node.title,
        parentId: node.parentId ?? null,
        status: 'running',
        startedAt,
      });
    }
    return made;
  });
  if (!inserted.length) throw badRequest(`Run id ${runId} is already used`, [{ path: 'run_id', message: 'already used' }]);
  const controller = new AbortController();
  const registry = runRegistry(ctx);
  registry.add({ runId, tenantId: app.tenantId, appId: app.id, controller });
  // Removed from the registry only once stored: a server that stops waits for the final write.
  try {
    const t0 = performance.now();

    let traceInputs: Record<string, unknown> = {};
    let result: NodeExecutionResult | undefined;
    let error: RunError | undefined;
    let status: NodeRunResult['status'] = 'succeeded';
    try {
      traceInputs = resolveInputs(node, pool);
      result = await execute(node, pool, root, {
        runId,
        mode: plan.mode,
        inputs: traceInputs,
        signal: controller.signal,
        services: buildExecutorServices(ctx, { tenantId: app.tenantId, workspaceId: app.workspaceId, appId: app.id, userId, secrets: Object.values(flow.env) }),
      });
    } catch (e) {
      const stopped = controller.signal.aborted;
      status = stopped ? 'stopped' : 'failed';
      error = stopped ? { code: RUN_ERRORS.CANCELLED, message: 'The run was stopped', nodeId } : toRunError(e, nodeId);
    }
    const elapsedMs = performance.now() - t0;
    const usage = result?.usage ?? { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
    const outputs = mask.value(result?.outputs ?? {});
    traceInputs = mask.value(traceInputs);
    if (error) error = { ...error, message: mask.text(error.message) };
    const finishedAt = new Date();
    await ctx.db.transaction(async (tx) => {
      await tx
        .update(nodeExecutions)
        .set({ status, inputs: traceInputs, outputs, handle: result ? (result.handle ?? 'source') : null, error: error ?? null, elapsedMs, ...usage, finishedAt })
        .where(eq(nodeExecutions.id, nodeRowId));
      await tx
        .update(runs)
        .set({ status, outputs, error: error ?? null, ...usage, steps: 1, elapsedMs, finishedAt })
        .where(eq(runs.id, runId));
    });
    return { runId, status, inputs: traceInputs, outputs, ...(error ? { error } : {}), elapsedMs, usage };
  } finally {
    registry.remove(runId);
  }
}

function resolveInputs(node: PlanNode, pool: VariablePool): Record<string, unknown> {
  if (node.executor?.inputs) return node.executor.inputs(node.config, pool);
  const out: Record<string, unknown> = {};
  for (const r of node.references) out[r.key] = pool.get(r.selector);
  return out;
}

/**
 * Calls the executor, raced against stop and the node's timeout (an executor may ignore its signal).
 * The timeout stands still while the node waits for a free sandbox (`ctx.waiting`), as in a run.
 */
function execute(
  node: PlanNode,
  pool: VariablePool,
  root: { conversation: Record<string, unknown> },
  run: { runId: string; mode: ExecutionContext['mode']; inputs: Record<string, unknown>; signal: AbortSignal; services: ExecutionContext['services'] },
): Promise<NodeExecutionResult> {
  const { timeoutMs } = node.settings;
  const overdue = new AbortController();
  const timer = new NodeTimer(timeoutMs, () => overdue.abort());
  const signal = AbortSignal.any([run.signal, overdue.signal]);
  const ctx: ExecutionContext = {
    runId: run.runId,
    mode: run.mode,
    node,
    config: node.config,
    inputs: run.inputs,
    runInputs: {},
    variables: pool,
    signal,
    attempt: 0,
    emitChunk: () => {},
    // No event stream here: the wait only stops the clock.
    waiting: (wait) => (wait ? timer.pause() : timer.resume()),
    assign: (selector, value) => {
      const [head, name, ...rest] = selector;
      if (head === 'conversation' && name !== undefined && !rest.length && Object.prototype.hasOwnProperty.call(root.conversation, name)) {
        root.conversation[name] = value;
        return;
      }
      throw new NodeExecutionError(RUN_ERRORS.ASSIGN_INVALID, `Cannot assign ${selector.join('.')}: not a conversation variable`);
    },
    services: run.services,
  };
  return new Promise<NodeExecutionResult>((resolve, reject) => {
    const onAbort = () =>
      reject(run.signal.aborted ? run.signal.reason : new NodeExecutionError(RUN_ERRORS.NODE_TIMEOUT, `The node took longer than ${timeoutMs} ms`));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    Promise.resolve()
      .then(() => node.executor!.execute(ctx))
      .then(resolve, reject)
      .finally(() => {
        timer.stop();
        signal.removeEventListener('abort', onAbort);
      });
  });
}
