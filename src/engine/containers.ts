import { NodeExecutionError, type ContainerRunner, type IterateOptions, type LoopOptions } from '../plugin-sdk/executor';
import type { PlanNode } from './compile';
import { AbortScope, NodeFailure, RUN_ERRORS, RunAbort, toRunError } from './errors';
import { VariablePool } from './pool';
import { ScopeRun, type LoopVariables } from './scope';

/**
 * `ctx.container` for a container node: runs its body once per round, each round in its own pool
 * (so parallel rounds do not see each other's outputs) with the container's inner values under the
 * container's id.
 */
export function containerRunner(parent: ScopeRun, node: PlanNode, executionId: string, abort: AbortScope): ContainerRunner {
  const run = parent.run;
  const body = node.body!;
  const head = {
    executionId,
    nodeId: node.id,
    kind: node.kind,
    title: node.title,
    ...(node.parentId ? { parentId: node.parentId } : {}),
    scope: parent.frames,
  };

  function enter(): void {
    const depth = parent.frames.length + 1;
    if (depth > run.limits.maxDepth) {
      throw run.abort(new RunAbort(RUN_ERRORS.DEPTH_LIMIT, `Containers are nested deeper than ${run.limits.maxDepth}`));
    }
  }

  async function round(index: number, inner: Record<string, unknown>, within: AbortScope, loops?: LoopVariables): Promise<VariablePool> {
    const pool = new VariablePool(run.root, parent.pool).set(node.id, inner);
    const frames = [...parent.frames, { containerId: node.id, executionId, index }];
    await new ScopeRun(run, body, pool, frames, within, loops ?? parent.loops).start();
    return pool;
  }

  return {
    async iterate(items: readonly unknown[], opts: IterateOptions = {}) {
      enter();
      if (!Array.isArray(items)) throw new NodeExecutionError(RUN_ERRORS.ITERATION_INPUT_INVALID, 'An iteration needs an array to go over');
      const total = items.length;
      const parallelism = Math.max(1, Math.min(Math.floor(opts.parallelism ?? 1) || 1, total || 1));
      const mode = opts.errorMode ?? 'terminated';
      run.emit({ type: 'iteration_started', ...head, total, parallelism });

      const output: unknown[] = new Array(total).fill(null);
      const ok = new Uint8Array(total);
      const failed: number[] = [];
      // Rounds share a controller so a terminating failure can stop the others.
      const rounds = new AbortScope(abort);
      let firstError: unknown;
      let next = 0;

      const worker = async () => {
        while (next < total && firstError === undefined) {
          const i = next++;
          run.emit({ type: 'iteration_next', ...head, index: i });
          try {
            const pool = await round(i, { item: items[i], index: i }, rounds);
            if (opts.output) output[i] = pool.get(opts.output) ?? null;
            ok[i] = 1;
          } catch (e) {
            if (firstError !== undefined) return; // stopped because another round ended the iteration
            if (!(e instanceof NodeFailure)) {
              firstError = e; // stop, a limit, or the node's own timeout: the iteration ends
              return;
            }
            failed.push(i);
            if (mode === 'terminated') {
              const inner = toRunError(e);
              firstError = new NodeExecutionError(RUN_ERRORS.ITERATION_FAILED, `Round ${i} failed: ${inner.message}`, inner);
              rounds.abort(new RunAbort(RUN_ERRORS.ABORTED, `Stopped because round ${i} failed`));
              return;
            }
          }
        }
      };
      try {
        await Promise.all(Array.from({ length: parallelism }, worker));
      } finally {
        rounds.dispose();
      }
      if (firstError !== undefined) throw firstError;
      failed.sort((a, b) => a - b);
      return { output: mode === 'remove-abnormal-output' ? output.filter((_, i) => ok[i]) : output, failed };
    },

    async loop(opts: LoopOptions) {
      enter();
      const maxCount = Math.max(0, Math.floor(opts.maxCount) || 0);
      const names = new Set(Object.keys(opts.variables ?? {}));
      // One live record: inner nodes read it as [loopId, name] and `ctx.assign` writes it.
      const values: Record<string, unknown> = { ...opts.variables };
      const loops = new Map(parent.loops);
      loops.set(node.id, { values, names });
      const snapshot = () => {
        const out: Record<string, unknown> = {};
        for (const n of names) out[n] = values[n];
        return out;
      };
      run.emit({ type: 'loop_started', ...head, maxCount });
      let rounds = 0;
      let broke = false;
      while (!broke && rounds < maxCount) {
        if (abort.aborted) throw abort.reason;
        run.emit({ type: 'loop_next', ...head, index: rounds, variables: snapshot() });
        if (!names.has('index')) values.index = rounds;
        const pool = await round(rounds, values, abort, loops);
        rounds++;
        broke = opts.shouldBreak ? await opts.shouldBreak(pool, rounds) : false;
      }
      return { rounds, variables: snapshot(), broke };
    },
  };
}
