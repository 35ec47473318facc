import { z } from 'zod';
import type { FlowDocument, FlowMode, FlowNode } from '../../schemas/flow';
import type { RunEvent, RunEventOf, RunEventType } from '../../schemas/run';
import { compile, run, type ExecutionPlan, type RunOptions } from '../../src/engine';
import {
  createExecutorRegistry,
  createNodeRegistry,
  defineNodeExecutor,
  defineNodePlugin,
  MaybeSelector,
  NodeExecutionError,
  Template,
  VariableName,
  type Port,
} from '../../src/plugin-sdk';

/**
 * Small node kinds for the engine scenarios (not the product's built-ins), and helpers to build
 * flows, hold nodes open with deferred promises and watch run events.
 */

export interface Deferred<T = void> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(e: unknown): void;
}
export function deferred<T = void>(): Deferred<T> {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((a, b) => ((resolve = a), (reject = b)));
  return { promise, resolve, reject };
}

const texts = (title: string) => ({ zh: { title, description: title }, en: { title, description: title } });
/** The node settings the engine reads (nested spelling), kept by the schema. */
const settings = {
  errorStrategy: z.unknown().optional(),
  retry: z.unknown().optional(),
  timeoutMs: z.number().optional(),
  defaultValues: z.unknown().optional(),
};
const valuePort: Port[] = [{ name: 'value', type: 'string' }];

const startKind = defineNodePlugin({
  kind: 'start',
  version: 1,
  category: 'basic',
  icon: { lucide: 'house' },
  i18n: texts('Start'),
  configSchema: z.object({ variables: z.array(z.object({ name: VariableName, type: z.enum(['string', 'number', 'array[string]']) })).default([]) }),
  outputs: (c) => c.variables.map((v): Port => ({ name: v.name, type: v.type })),
  targetHandle: false,
  parents: ['root'],
});
const end = defineNodePlugin({
  kind: 'end',
  version: 1,
  category: 'basic',
  icon: { lucide: 'flag' },
  i18n: texts('End'),
  configSchema: z.object({ outputs: z.array(z.object({ name: VariableName, value: MaybeSelector })).default([]) }),
  sourceHandles: [],
});
const answer = defineNodePlugin({
  kind: 'answer',
  version: 1,
  category: 'basic',
  icon: { lucide: 'message-square' },
  i18n: texts('Answer'),
  configSchema: z.object({ answer: Template.default('') }),
  outputs: [{ name: 'answer', type: 'string' }],
});
/**
 * Renders `text`, copies `from`; holds until `gate` opens when one is named; fails on `fail`.
 * With `queue`, first waits as if queued for a sandbox: 2 ahead until gate `${queue}:1`, 1 ahead
 * until gate `queue`.
 */
const step = defineNodePlugin({
  kind: 'step',
  version: 1,
  category: 'transform',
  icon: { lucide: 'circle' },
  i18n: texts('Step'),
  configSchema: z.object({
    text: Template.default(''),
    from: MaybeSelector.default([]),
    gate: z.string().default(''),
    queue: z.string().default(''),
    /** Fail the first `failTimes` tries (-1: always). */
    failTimes: z.number().default(0),
    /** Fail when `from` has this value. */
    failOn: z.string().optional(),
    ...settings,
  }),
  outputs: [{ name: 'text', type: 'string' }, ...valuePort, { name: 'error_message', type: 'string' }, { name: 'error_code', type: 'string' }],
});
/** An llm in miniature: streams `chunks` into `text`, chunk i waiting for gate `${gate}:${i}` when named. */
const stream = defineNodePlugin({
  kind: 'stream',
  version: 1,
  category: 'model',
  icon: { lucide: 'brain' },
  i18n: texts('Stream'),
  configSchema: z.object({ chunks: z.array(z.string()).default([]), gate: z.string().default(''), ...settings }),
  outputs: [{ name: 'text', type: 'string' }],
});
/** If-else in miniature: the first case whose selector is truthy, else `else`. */
const branch = defineNodePlugin({
  kind: 'branch',
  version: 1,
  category: 'logic',
  icon: { lucide: 'git-branch' },
  i18n: texts('Branch'),
  configSchema: z.object({ cases: z.array(z.object({ id: z.string(), when: MaybeSelector })).default([]), ...settings }),
  sourceHandles: (c) => [...c.cases.map((x) => ({ id: x.id })), { id: 'else' }],
});
const iteration = defineNodePlugin({
  kind: 'iteration',
  version: 1,
  category: 'container',
  icon: { lucide: 'repeat' },
  i18n: texts('Iteration'),
  configSchema: z.object({
    items: MaybeSelector.default([]),
    output: MaybeSelector.default([]),
    parallelism: z.number().default(1),
    errorMode: z.enum(['terminated', 'continue-on-error', 'remove-abnormal-output']).default('terminated'),
    ...settings,
  }),
  innerOutputs: [{ name: 'item', type: 'string' }, { name: 'index', type: 'number' }],
  outputs: [{ name: 'output', type: 'array[string]' }],
  container: { startKind: 'iteration-start' },
});
const iterationStart = defineNodePlugin({
  kind: 'iteration-start',
  version: 1,
  category: 'container',
  icon: { lucide: 'play' },
  i18n: texts('Iteration start'),
  configSchema: z.object({}),
  targetHandle: false,
  parents: ['iteration'],
});
/** Loop variables `vars`; breaks once `[loop, breakVar] >= breakAt`. */
const loop = defineNodePlugin({
  kind: 'loop',
  version: 1,
  category: 'container',
  icon: { lucide: 'refresh-cw' },
  i18n: texts('Loop'),
  configSchema: z.object({
    maxCount: z.number().default(10),
    vars: z.array(z.object({ name: VariableName, value: z.number() })).default([]),
    breakVar: z.string().default(''),
    breakAt: z.number().default(0),
    ...settings,
  }),
  innerOutputs: (c) => [...c.vars.map((v): Port => ({ name: v.name, type: 'number' })), { name: 'index', type: 'number' }],
  outputs: (c) => [...c.vars.map((v): Port => ({ name: v.name, type: 'number' })), { name: 'rounds', type: 'number' }],
  container: { startKind: 'loop-start', breakCondition: true },
});
const loopStart = defineNodePlugin({
  kind: 'loop-start',
  version: 1,
  category: 'container',
  icon: { lucide: 'play' },
  i18n: texts('Loop start'),
  configSchema: z.object({}),
  targetHandle: false,
  parents: ['loop'],
});
/** Sets `target` to `from + add` (loop and conversation variables). */
const assign = defineNodePlugin({
  kind: 'assign',
  version: 1,
  category: 'transform',
  icon: { lucide: 'equal' },
  i18n: texts('Assign'),
  configSchema: z.object({ target: MaybeSelector.default([]), from: MaybeSelector.default([]), add: z.number().default(0) }),
});

export const plugins = [startKind, end, answer, step, stream, branch, iteration, iterationStart, loop, loopStart, assign];

/** Executors over one kit's state: gates to hold nodes, counters, what each node's signal saw. */
export function createKit() {
  const gates = new Map<string, Deferred>();
  const tries = new Map<string, number>();
  const aborted = new Set<string>();
  const gate = (key: string) => gates.get(key) ?? gates.set(key, deferred()).get(key)!;
  const watch = (id: string, signal: AbortSignal) => signal.addEventListener('abort', () => aborted.add(id), { once: true });

  const executors = createExecutorRegistry([
    defineNodeExecutor(startKind, { execute: ({ config, runInputs }) => ({ outputs: Object.fromEntries(config.variables.map((v) => [v.name, runInputs[v.name]])) }) }),
    defineNodeExecutor(end, {
      providesRunOutputs: true,
      execute: ({ config, variables }) => ({ outputs: Object.fromEntries(config.outputs.map((o) => [o.name, variables.get(o.value)])) }),
    }),
    defineNodeExecutor(answer, { answerTemplate: (c) => c.answer, execute: ({ config, variables }) => ({ outputs: { answer: variables.render(config.answer) } }) }),
    defineNodeExecutor(step, {
      async execute({ node, config, variables, signal, waiting }) {
        watch(node.id, signal);
        const n = (tries.get(node.id) ?? 0) + 1;
        tries.set(node.id, n);
        if (config.queue) {
          waiting({ reason: 'sandbox', ahead: 2 });
          waiting({ reason: 'sandbox', ahead: 2 });
          await gate(`${config.queue}:1`).promise;
          waiting({ reason: 'sandbox', ahead: 1 });
          await gate(config.queue).promise;
          waiting(null);
        }
        if (config.gate) await gate(config.gate).promise;
        const value = config.from.length ? variables.get(config.from) : undefined;
        if (config.failTimes === -1 || n <= config.failTimes) throw new NodeExecutionError('TEST-FAIL', `try ${n} of ${node.id} failed`);
        if (config.failOn !== undefined && value === config.failOn) throw new Error(`${node.id} refuses ${String(value)}`);
        return { outputs: { text: variables.render(config.text), value } };
      },
    }),
    defineNodeExecutor(stream, {
      async execute({ node, config, emitChunk, signal }) {
        watch(node.id, signal);
        for (const [i, c] of config.chunks.entries()) {
          if (config.gate) await gate(`${config.gate}:${i}`).promise;
          emitChunk(c);
        }
        return { outputs: { text: config.chunks.join('') }, usage: { promptTokens: 3, completionTokens: config.chunks.length, totalTokens: 3 + config.chunks.length } };
      },
    }),
    defineNodeExecutor(branch, {
      execute: ({ config, variables }) => ({ outputs: {}, handle: config.cases.find((c) => Boolean(variables.get(c.when)))?.id ?? 'else' }),
    }),
    defineNodeExecutor(iteration, {
      async execute({ config, variables, container }) {
        const items = variables.get(config.items) as unknown[];
        const r = await container!.iterate(items, { parallelism: config.parallelism, errorMode: config.errorMode, output: config.output });
        return { outputs: { output: r.output, failed: r.failed } };
      },
    }),
    defineNodeExecutor(loop, {
      async execute({ node, config, container }) {
        const r = await container!.loop({
          maxCount: config.maxCount,
          variables: Object.fromEntries(config.vars.map((v) => [v.name, v.value])),
          shouldBreak: config.breakVar ? (v) => Number(v.get([node.id, config.breakVar])) >= config.breakAt : undefined,
        });
        return { outputs: { ...r.variables, rounds: r.rounds, broke: r.broke } };
      },
    }),
    defineNodeExecutor(assign, {
      execute({ config, variables, assign: set }) {
        set(config.target, Number(variables.get(config.from)) + config.add);
        return { outputs: {} };
      },
    }),
  ]);
  return { gates, gate, tries, aborted, executors, registries: { nodes: createNodeRegistry(plugins), executors } };
}
export type Kit = ReturnType<typeof createKit>;

type NodeSpec = [id: string, kind: string, config?: Record<string, unknown>, parentId?: string];
type EdgeSpec = [source: string, target: string, handle?: string];

export function flow(nodes: NodeSpec[], edges: EdgeSpec[], mode: FlowMode = 'workflow', variables: Partial<FlowDocument['variables']> = {}): FlowDocument {
  return {
    schemaVersion: 1,
    mode,
    nodes: nodes.map(([id, kind, config = {}, parentId]): FlowNode => ({ id, kind, kindVersion: 1, title: id, position: { x: 0, y: 0 }, config, ...(parentId ? { parentId } : {}) })),
    edges: edges.map(([source, target, handle = 'source']) => ({ id: `${source}-${handle}-${target}`, source, sourceHandle: handle, target, targetHandle: 'target' })),
    variables: { env: [], conversation: [], ...variables },
    notes: '',
  };
}

export function planOf(kit: Kit, doc: FlowDocument): ExecutionPlan {
  const c = compile(doc, kit.registries);
  if (!c.ok) throw new Error(`Flow does not compile: ${c.issues.map((i) => `${i.code} ${i.nodeId ?? ''} ${i.message}`).join('; ')}`);
  return c.plan;
}

/** Starts a run and records its events; `until` waits for the first event that matches. */
export function begin(plan: ExecutionPlan, opts: RunOptions = {}) {
  const events: RunEvent[] = [];
  const waiters: { test: (e: RunEvent) => boolean; done: Deferred<RunEvent> }[] = [];
  const execution = run(plan, {
    ...opts,
    bufferEvents: false,
    onEvent: (e) => {
      events.push(e);
      for (const w of [...waiters]) if (w.test(e)) (waiters.splice(waiters.indexOf(w), 1), w.done.resolve(e));
    },
  });
  const until = (test: (e: RunEvent) => boolean) => {
    const hit = events.find(test);
    if (hit) return Promise.resolve(hit);
    const done = deferred<RunEvent>();
    waiters.push({ test, done });
    return done.promise;
  };
  const of = <T extends RunEventType>(type: T, nodeId?: string) =>
    events.filter((e): e is RunEventOf<T> => e.type === type && (nodeId === undefined || (e as { nodeId?: string }).nodeId === nodeId));
  /** `type:nodeId` of each node event, in order. */
  const trail = () => events.filter((e) => 'nodeId' in e).map((e) => `${e.type}:${(e as { nodeId: string }).nodeId}`);
  return { execution, events, until, of, trail, result: execution.result };
}

export const is = (type: RunEventType, nodeId?: string) => (e: RunEvent) => e.type === type && (nodeId === undefined || (e as { nodeId?: string }).nodeId === nodeId);
