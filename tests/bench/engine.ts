/**
 * Engine overhead benchmark (`npm run bench:engine`): prints figures, asserts nothing.
 * - a chain of 1,000 no-op nodes;
 * - a chain of 10,000 template nodes (each renders `{{#previous.text#}}!`-style text);
 * - a wide flow: start → 1,000 parallel no-op nodes → one join.
 * Each is run several times; the figure is the median wall time of a run divided by its nodes,
 * with every event consumed (by `onEvent`, and once through the async iterator).
 * - a one-node code flow (the real code executor and sandbox, two workers): ms per run, one at a
 *   time and eight at once.
 * Then the server figures of ./server.ts: workflow runs per second over HTTP and the first-token
 * latency the server adds.
 */
import { z } from 'zod';
import type { FlowDocument, FlowEdge, FlowNode } from '../../schemas/flow';
import { compile, run, type ExecutionPlan, type RunOptions } from '../../src/engine';
import { createExecutorRegistry, createNodeRegistry, defineNodeExecutor, defineNodePlugin, Template } from '../../src/plugin-sdk';
import { loadBuiltinKinds } from '../../src/server/plugins/builtins';
import { createCodeSandbox, createSandboxService } from '../../src/server/sandbox';
import { benchServer } from './server';

const texts = { zh: { title: 'x', description: 'x' }, en: { title: 'x', description: 'x' } };
const start = defineNodePlugin({ kind: 'start', version: 1, category: 'basic', icon: { lucide: 'house' }, i18n: texts, configSchema: z.object({}), targetHandle: false });
const noop = defineNodePlugin({ kind: 'noop', version: 1, category: 'transform', icon: { lucide: 'circle' }, i18n: texts, configSchema: z.object({}) });
const template = defineNodePlugin({
  kind: 'template',
  version: 1,
  category: 'transform',
  icon: { lucide: 'type' },
  i18n: texts,
  configSchema: z.object({ template: Template.default('') }),
  outputs: [{ name: 'text', type: 'string' }],
});
const registries = {
  nodes: createNodeRegistry([start, noop, template]),
  executors: createExecutorRegistry([
    defineNodeExecutor(start, { execute: () => ({ outputs: { text: 'go' } }) }),
    defineNodeExecutor(noop, { execute: () => ({ outputs: {} }) }),
    // Keeps the text short so the figure is the engine's, not string building.
    defineNodeExecutor(template, { execute: ({ config, variables }) => ({ outputs: { text: variables.render(config.template).slice(-16) } }) }),
  ]),
};

const node = (id: string, kind: string, config: Record<string, unknown> = {}): FlowNode => ({ id, kind, kindVersion: 1, title: '', position: { x: 0, y: 0 }, config });
const edge = (source: string, target: string): FlowEdge => ({ id: `${source}-${target}`, source, sourceHandle: 'source', target, targetHandle: 'target' });
const doc = (nodes: FlowNode[], edges: FlowEdge[]): FlowDocument => ({ schemaVersion: 1, mode: 'workflow', nodes, edges, variables: { env: [], conversation: [] }, notes: '' });

function chain(n: number, kind: 'noop' | 'template'): FlowDocument {
  const nodes = [node('s', 'start')];
  const edges: FlowEdge[] = [];
  for (let i = 0; i < n; i++) {
    const prev = i ? `n${i - 1}` : 's';
    nodes.push(node(`n${i}`, kind, kind === 'template' ? { template: `{{#${i ? prev : 's'}.text#}}!` } : {}));
    edges.push(edge(prev, `n${i}`));
  }
  return doc(nodes, edges);
}

function wide(n: number): FlowDocument {
  const nodes = [node('s', 'start'), node('join', 'noop')];
  const edges: FlowEdge[] = [];
  for (let i = 0; i < n; i++) {
    nodes.push(node(`p${i}`, 'noop'));
    edges.push(edge('s', `p${i}`), edge(`p${i}`, 'join'));
  }
  return doc(nodes, edges);
}

function plan(document: FlowDocument, validate: boolean): { plan: ExecutionPlan; compileMs: number } {
  const t0 = performance.now();
  const c = compile(document, registries, { validate });
  if (!c.ok) throw new Error(c.issues.map((i) => i.message).join('; '));
  return { plan: c.plan, compileMs: performance.now() - t0 };
}

const limits: RunOptions['limits'] = { maxSteps: 1_000_000 };

async function timeRun(p: ExecutionPlan, iterate: boolean): Promise<number> {
  let events = 0;
  const t0 = performance.now();
  if (iterate) {
    const execution = run(p, { limits });
    for await (const _ of execution) events++;
    if ((await execution.result).status !== 'succeeded') throw new Error('run failed');
  } else {
    const r = await run(p, { limits, bufferEvents: false, onEvent: () => void events++ }).result;
    if (r.status !== 'succeeded') throw new Error(`run failed: ${r.error?.message}`);
  }
  return performance.now() - t0;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (n: number, d = 1) => n.toFixed(d).padStart(8);

async function bench(name: string, document: FlowDocument, nodes: number, validate: boolean, rounds: number) {
  const { plan: p, compileMs } = plan(document, validate);
  for (let i = 0; i < 2; i++) await timeRun(p, false); // warm up
  const viaCallback: number[] = [];
  const viaIterator: number[] = [];
  for (let i = 0; i < rounds; i++) {
    viaCallback.push(await timeRun(p, false));
    viaIterator.push(await timeRun(p, true));
  }
  const cb = median(viaCallback);
  const it = median(viaIterator);
  console.log(
    `${name.padEnd(34)} nodes ${String(nodes).padStart(6)} | compile ${fmt(compileMs)} ms${validate ? '' : ' (no validate)'} | run ${fmt(cb)} ms = ${fmt((cb * 1000) / nodes, 2)} µs/node (onEvent) | ${fmt((it * 1000) / nodes, 2)} µs/node (async iterator)`,
  );
}

console.log(`Weft engine overhead (Node ${process.version}; median of runs, events consumed)\n`);
await bench('chain of no-op nodes', chain(1000, 'noop'), 1001, true, 15);
await bench('chain of template nodes', chain(10_000, 'template'), 10_001, false, 5);
await bench('wide parallel (1,000 branches + join)', wide(1000), 1002, true, 15);

/** The code node through the engine on a real sandbox: the figure is mostly the sandbox's start per run. */
async function benchCode(rounds: number) {
  const sandbox = createCodeSandbox({ maxWorkers: 2, maxPerTenant: 2, maxPerUser: 2 });
  const kinds = await loadBuiltinKinds();
  const builtins = { nodes: createNodeRegistry(kinds.plugins), executors: createExecutorRegistry(kinds.executors) };
  const document = doc(
    [
      node('s', 'start'),
      node('c', 'code', { inputs: [], code: 'function main() { return { result: "ok" } }', outputs: [{ name: 'result', type: 'string' }] }),
      node('e', 'end', { outputs: [{ name: 'result', selector: ['c', 'result'] }] }),
    ],
    [edge('s', 'c'), edge('c', 'e')],
  );
  const c = compile(document, builtins);
  if (!c.ok) throw new Error(c.issues.map((i) => i.message).join('; '));
  const services = { sandbox: createSandboxService(sandbox, { tenantId: 'bench', userId: 'bench' }) };
  const once = async () => {
    const r = await run(c.plan, { services, bufferEvents: false }).result;
    if (r.status !== 'succeeded') throw new Error(`code run failed: ${r.error?.message}`);
  };
  for (let i = 0; i < 5; i++) await once(); // workers started, modules compiled
  const serial: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    await once();
    serial.push(performance.now() - t0);
  }
  const t0 = performance.now();
  await Promise.all(Array.from({ length: rounds }, () => once()));
  const parallel = (performance.now() - t0) / rounds;
  console.log(`${'one code node (real sandbox)'.padEnd(34)} nodes      3 | ${fmt(median(serial), 2)} ms/run one at a time | ${fmt(parallel, 2)} ms/run ${rounds} queued at once (one tenant: 1 of 2 workers)`);
  await sandbox.close();
}
await benchCode(40);

console.log('\nWeft run server (embedded database in memory, fake OpenAI-compatible provider)\n');
await benchServer();
