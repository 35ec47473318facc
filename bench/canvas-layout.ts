/**
 * Auto-layout benchmark (figures only, no assertions): ELK layered on a 500-node flow (a chain of
 * branching sections, a few iteration containers with children), in this thread. The browser runs
 * the same code in a Web Worker (`npm run bench:canvas` measures that end to end).
 * Run: npm run bench:canvas-layout
 */
import { performance } from 'node:perf_hooks';
import { createEdge, type FlowDocument, type FlowEdge, type FlowNode } from '../schemas/flow';
import { createLayout } from '../src/canvas/layout';

const N = 500;

/** Sections of: a branch node with two arms of two steps that join again; every 10th an iteration. */
function bigFlow(total: number): FlowDocument {
  const nodes: FlowNode[] = [];
  const edges: FlowEdge[] = [];
  const add = (id: string, kind: string, parentId?: string) => {
    nodes.push({ id, kind, kindVersion: 1, title: '', position: { x: 0, y: 0 }, config: {}, ...(parentId ? { parentId } : {}) });
    return id;
  };
  let prev = add('start', 'start');
  for (let s = 0; nodes.length < total; s++) {
    if (s % 10 === 9) {
      const it = add(`it${s}`, 'iteration');
      edges.push(createEdge(prev, it));
      let inner = add(`it${s}-start`, 'iteration-start', it);
      for (let k = 0; k < 3; k++) {
        const step = add(`it${s}-n${k}`, 'code', it);
        edges.push(createEdge(inner, step));
        inner = step;
      }
      prev = it;
      continue;
    }
    const branch = add(`b${s}`, 'if-else');
    edges.push(createEdge(prev, branch));
    const join = `j${s}`;
    for (const arm of ['true', 'false']) {
      const a = add(`b${s}-${arm}-1`, 'llm');
      const b = add(`b${s}-${arm}-2`, 'code');
      edges.push(createEdge(branch, a, arm), createEdge(a, b), createEdge(b, join));
    }
    prev = add(join, 'variable-aggregator');
  }
  return { schemaVersion: 1, mode: 'workflow', nodes, edges, variables: { env: [], conversation: [] }, notes: '' };
}

const doc = bigFlow(N);
const layout = createLayout({ worker: false });
console.log(`canvas layout bench: ${doc.nodes.length} nodes, ${doc.edges.length} edges, ELK layered in process (node ${process.version})`);

for (const label of ['first run (loads elkjs)', 'second run', 'third run']) {
  const t = performance.now();
  // A new document object each time: the same one is answered from the last layout.
  const { positions, sizes } = await layout({ ...doc }, {});
  const ms = performance.now() - t;
  console.log(`${label.padEnd(26)} ${ms.toFixed(1).padStart(9)} ms   (${Object.keys(positions).length} positions, ${Object.keys(sizes ?? {}).length} containers sized)`);
}
