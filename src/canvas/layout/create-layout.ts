import ElkApi, { type ELK, type ElkNode } from 'elkjs/lib/elk-api';
import type { FlowDocument, FlowNode } from '../../../schemas/flow';
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
  /**
   * Loads ELK and warms it up with a tiny layout, so the first real one does not wait for that
   * (the editor calls it once the canvas is idle). Given the document of a big flow (at least
   * {@link SPECULATE_MIN_NODES} nodes), it lays that out instead: ELK's first layout of a big graph
   * runs cold (~1.5 s for 500 nodes in the worker, ~0.5 s warm), and if the builder then tidies up
   * the unchanged document, the result is already there (or on its way).
   */
  preload(doc?: FlowDocument): void;
  /** Terminates the worker, if one was started; a later call starts a new one. */
  dispose(): void;
};

/**
 * A two-node graph with the options and port constraints real jobs use: ELK's first layout in a
 * fresh worker pays for loading and compiling its code paths (~0.4 s of a 500-node layout).
 */
const WARM_UP: ElkNode = {
  id: 'warm-up',
  layoutOptions: { 'elk.algorithm': 'layered', 'elk.direction': 'RIGHT', 'elk.edgeRouting': 'POLYLINE', 'elk.layered.considerModelOrder.strategy': 'NODES_AND_EDGES' },
  children: [
    { id: 'a', width: 240, height: 88, layoutOptions: { 'elk.portConstraints': 'FIXED_ORDER' }, ports: [{ id: 'a-out', width: 0, height: 0, layoutOptions: { 'elk.port.side': 'EAST', 'elk.port.index': '0' } }] },
    { id: 'b', width: 240, height: 88, layoutOptions: { 'elk.portConstraints': 'FIXED_ORDER' }, ports: [{ id: 'b-in', width: 0, height: 0, layoutOptions: { 'elk.port.side': 'WEST' } }] },
  ],
  edges: [{ id: 'a-b', sources: ['a-out'], targets: ['b-in'] }],
};

/** From this many nodes, {@link FlowLayout.preload} lays the document out ahead. */
export const SPECULATE_MIN_NODES = 100;

/**
 * In the browser the engine is elk-api (4 kB, in this chunk) and the worker script, which Vite
 * bundles as a worker asset (the `new URL(…)`). The worker is created here and now: a dynamic
 * import of elk-api first would add a fetch whose answer waits for a busy main thread (200-270 ms
 * when tidying up a big flow just opened). Elsewhere (Node, tests) the bundled same-thread build,
 * imported on first use.
 */
function loadElk(worker: boolean): Promise<ELK> {
  if (worker) {
    // A module worker: Vite emits workers as ES modules (`worker.format: 'es'`); a classic worker
    // fails on the chunk's `export` and the layout never answers.
    return Promise.resolve(new ElkApi({ workerFactory: () => new Worker(new URL('elkjs/lib/elk-worker.min.js', import.meta.url), { type: 'module' }) }));
  }
  return import('elkjs/lib/elk.bundled.js').then(({ default: ElkBundled }) => new ElkBundled());
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
  /**
   * The last whole-flow layout and the document it was for. Its input is the document alone (sizes
   * by kind), and documents are immutable: the same object gives the same answer.
   */
  let last: { doc: FlowDocument; result: Promise<LayoutResult> } | undefined;

  const layout = (doc: Parameters<LayoutFunction>[0], opts: Parameters<LayoutFunction>[1] = {}): Promise<LayoutResult> => {
    if (opts.nodeIds) return run(doc, opts);
    if (last?.doc === doc) return last.result;
    const result = run(doc, opts);
    last = { doc, result };
    // A failed layout is not kept: the next call tries again.
    result.catch(() => last?.result === result && (last = undefined));
    return result;
  };

  const run = async (doc: FlowDocument, { nodeIds }: Parameters<LayoutFunction>[1]) => {
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
    preload(doc?: FlowDocument) {
      if (doc && doc.nodes.length >= SPECULATE_MIN_NODES) {
        // The real layout is the warm-up; its failure is the next call's to report.
        layout(doc, {}).catch(() => undefined);
        return;
      }
      if (elk) return;
      const loading = loadElk(worker);
      // The warm-up runs before any real job (the worker answers in order); its failure is the next
      // layout's to report.
      elk = loading.then(async (engine) => {
        await engine.layout(WARM_UP).catch(() => undefined);
        return engine;
      });
    },
    dispose() {
      const current = elk;
      elk = undefined;
      last = undefined;
      void current?.then((e) => e.terminateWorker()).catch(() => undefined);
    },
  });
}
