/**
 * Editor store benchmark (figures only, no assertions): 1,000 node adds, 1,000 config edits, then
 * undo of all 2,000 steps, on the canvas store with immer-patch history.
 * Run: npm run bench:canvas-store (add `-- --freeze` to measure with development-mode deep freezing)
 */
import { performance } from 'node:perf_hooks';
import { createFlowStore } from '../src/canvas/store/create-flow-store';
import { registry } from '../src/canvas/plugins.fixture';

const gc = (globalThis as { gc?: () => void }).gc;
const heapMb = () => {
  gc?.();
  return (process.memoryUsage().heapUsed / 1024 / 1024).toFixed(1);
};
const row = (phase: string, ms: number, extra = '') => console.log(`${phase.padEnd(24)} ${ms.toFixed(1).padStart(9)} ms   heap ${heapMb().padStart(7)} MB ${extra}`);

const N = 1000;
const freeze = process.argv.includes('--freeze');
const store = createFlowStore({ registry, mode: 'workflow', history: { limit: 2 * N + 10 }, freeze });
console.log(`canvas store bench: ${N} adds, ${N} edits, undo all (node ${process.version}, freeze ${freeze ? 'on' : 'off (as in production; --freeze for dev mode)'}${gc ? '' : ', run with --expose-gc for exact heap'})`);
row('start', 0);

let t = performance.now();
const ids: string[] = [];
for (let i = 0; i < N; i++) ids.push(store.addNode('echo', { position: { x: (i % 40) * 300, y: Math.floor(i / 40) * 200 } })!);
row('1,000 node adds', performance.now() - t, `(${store.toDocument().nodes.length} nodes)`);

t = performance.now();
for (let i = 0; i < N; i++) store.updateConfig(ids[i], ['text'], `Hello {{#${ids[(i + 1) % N]}.text#}} #${i}`, { merge: false });
row('1,000 config edits', performance.now() - t);

t = performance.now();
let undone = 0;
while (store.undo()) undone++;
row(`undo all (${undone} steps)`, performance.now() - t, `(${store.toDocument().nodes.length} nodes left)`);

t = performance.now();
let redone = 0;
while (store.redo()) redone++;
row(`redo all (${redone} steps)`, performance.now() - t);
