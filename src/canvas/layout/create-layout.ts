import type { ELK } from 'elkjs/lib/elk-api';
import type { FlowNode } from '../../../schemas/flow';
import type { NodeRegistry } from '../../plugin-sdk';
import type { LayoutFunction } from '../commands/types';
import { buildElkJobs, readElkResult, type LayoutResult } from './elk-graph';
import { defaultMeasure, type MeasureNode } from './measure';

export interface CreateLayoutOptions {
  /**
   * Run ELK in a real Web Worker (default: when the environment has `Worker`, i.e. the browser).
   * Off, ELK runs in this thread (Node, tests, the benchmark).
   */
  worker?: boolean;
  /** Node sizes as drawn (default {@link defaultMeasure}, by kind). */
  measure?: MeasureNode;
  /**
   * The editor's registry: source handles are ordered as the kind declares them (if-else cases
   * top to bottom, then else), and annotation kinds (sticky notes) stay where they are.
   */
  registry?: NodeRegistry;
}

/** A layout function that can also stop its worker (when the editor closes). */
export type FlowLayout = LayoutFunction & {
  /** Terminates the worker, if one was started; a later call starts a new one. */
  dispose(): void;
};

/**
 * ELK's ~450 kB stays out of the main chunk: it is imported on the first layout. In the browser
 * the engine is elk-api plus the worker script (Vite bundles the `new URL(…)` as a worker asset);
 * elsewhere the bundled same-thread build.
 */
async function loadElk(worker: boolean): Promise<ELK> {
  if (worker) {
    const { default: ElkApi } = await import('elkjs/lib/elk-api');
    // A module worker: Vite emits workers as ES modules (`worker.format: 'es'`); a classic worker
    // fails on the chunk's `export` and the layout never answers.
    return new ElkApi({ workerFactory: () => new Worker(new URL('elkjs/lib/elk-worker.min.js', import.meta.url), { type: 'module' }) });
  }
  const { default: ElkBundled } = await import('elkjs/lib/elk.bundled.js');
  return new ElkBundled();
}

/**
 * Creates the auto-layout the `layout` command calls (`CommandContext.layout`): ELK's layered
 * algorithm, left to right, containers laid out inside with their children (their positions come
 * back relative to the container, and the container's new size with them). The laid-out nodes keep
 * their old top-left corner, so the flow does not jump away from the viewport.
 *
 * @example
 * const layout = createLayout({ registry, measure: (n) => measured[n.id] ?? defaultMeasure(n) });
 * const manager = createCommandManager(store, { clipboard, layout });
 * const { positions, sizes } = await layout(store.toDocument(), {});
 */
export function createLayout(opts: CreateLayoutOptions = {}): FlowLayout {
  const worker = opts.worker ?? typeof Worker !== 'undefined';
  const measure = opts.measure ?? defaultMeasure;
  const { registry } = opts;
  const isFixed = registry ? (n: FlowNode) => registry.get(n.kind)?.category === 'annotation' : undefined;
  const handleOrder = registry ? (n: FlowNode) => registry.sourceHandlesOf(n).map((h) => h.id) : undefined;
  let elk: Promise<ELK> | undefined;

  const layout = async (doc: Parameters<LayoutFunction>[0], { nodeIds }: Parameters<LayoutFunction>[1] = {}) => {
    const jobs = buildElkJobs(doc, { measure, nodeIds, isFixed, handleOrder });
    const result: LayoutResult = { positions: {}, sizes: {} };
    if (!jobs.length) return result;
    elk ??= loadElk(worker);
    const engine = await elk;
    // One scope at a time: the worker runs them in turn anyway, and memory stays flat.
    for (const job of jobs) readElkResult(job, await engine.layout(job.graph), result);
    return result;
  };

  return Object.assign(layout, {
    dispose() {
      const current = elk;
      elk = undefined;
      void current?.then((e) => e.terminateWorker()).catch(() => undefined);
    },
  });
}
