import { describe, expect, it } from 'vitest';
import { createEdge, FlowDocument, type FlowNode } from '../../../schemas/flow';
import { createNodeRegistry } from '../../plugin-sdk';
import { builtinPlugins } from '../builtin-plugins';
import { createFlowStore } from '../store/create-flow-store';
import { builtinCommands, createCommandManager } from '../commands';
import { createLayout, SPECULATE_MIN_NODES } from './create-layout';
import { buildElkJobs } from './elk-graph';
import { defaultMeasure } from './measure';
import type { ClipboardAdapter } from '../clipboard';

const registry = createNodeRegistry(builtinPlugins);

const node = (id: string, kind: string, parentId?: string, config: Record<string, unknown> = {}): FlowNode => ({
  id,
  kind,
  kindVersion: 1,
  title: '',
  position: { x: 0, y: 0 },
  config: { ...registry.defaults(kind), ...config },
  ...(parentId ? { parentId } : {}),
  ...(kind === 'iteration' ? { width: 640, height: 260 } : {}),
});

/** start → if-else ⇒ (case) llm / (else) code → aggregator → end, plus a sticky note. */
const branching = FlowDocument.parse({
  schemaVersion: 1,
  mode: 'workflow',
  nodes: [
    node('start', 'start'),
    node('branch', 'if-else', undefined, { cases: [{ id: 'yes', logicalOperator: 'and', conditions: [] }] }),
    node('llm', 'llm'),
    node('code', 'code'),
    node('join', 'variable-aggregator'),
    node('end', 'end'),
    { ...node('note', 'note'), position: { x: 5, y: 7 }, width: 200, height: 120 },
  ],
  edges: [
    createEdge('start', 'branch'),
    createEdge('branch', 'llm', 'yes'),
    createEdge('branch', 'code', 'false'),
    createEdge('llm', 'join'),
    createEdge('code', 'join'),
    createEdge('join', 'end'),
  ],
});

/** start → iteration { iteration-start → code → template } → end. */
const container = FlowDocument.parse({
  schemaVersion: 1,
  mode: 'workflow',
  nodes: [
    node('start', 'start'),
    { ...node('iter', 'iteration'), position: { x: 400, y: 100 } },
    node('iter-start', 'iteration-start', 'iter'),
    node('step', 'code', 'iter'),
    node('render', 'template-transform', 'iter'),
    node('end', 'end'),
  ],
  edges: [createEdge('start', 'iter'), createEdge('iter-start', 'step'), createEdge('step', 'render'), createEdge('iter', 'end')],
});

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

function boxes(doc: FlowDocument, positions: Record<string, { x: number; y: number }>, sizes: Record<string, { width: number; height: number }>) {
  const out: Record<string, Box> = {};
  for (const n of doc.nodes) out[n.id] = { ...(positions[n.id] ?? n.position), ...(sizes[n.id] ?? defaultMeasure(n)) };
  return out;
}

function expectNoOverlaps(ids: string[], b: Record<string, Box>) {
  for (let i = 0; i < ids.length; i++) for (let j = i + 1; j < ids.length; j++) expect(overlaps(b[ids[i]], b[ids[j]]), `${ids[i]} overlaps ${ids[j]}`).toBe(false);
}

describe('createLayout (ELK in process)', () => {
  const layout = createLayout({ worker: false, registry });

  it('lays a branching flow out left to right without overlaps, branches in handle order', async () => {
    const { positions, sizes } = await layout(branching, {});
    const b = boxes(branching, positions, sizes ?? {});
    for (const e of branching.edges) expect(b[e.target].x, `${e.source} → ${e.target}`).toBeGreaterThanOrEqual(b[e.source].x + b[e.source].width);
    expectNoOverlaps(['start', 'branch', 'llm', 'code', 'join', 'end'], b);
    // The IF case is drawn above ELSE, so its branch goes on top.
    expect(b.llm.y).toBeLessThan(b.code.y);
    // The sticky note is not laid out.
    expect(positions.note).toBeUndefined();
  });

  it('keeps the laid-out nodes at their old top-left corner', async () => {
    const moved = { ...branching, nodes: branching.nodes.map((n) => (n.id === 'start' ? { ...n, position: { x: -300, y: 50 } } : n)) };
    const { positions } = await layout(moved, {});
    const laid = Object.values(positions);
    expect(Math.min(...laid.map((p) => p.x))).toBe(-300);
    expect(Math.min(...laid.map((p) => p.y))).toBe(0);
  });

  it('lays a container out with its children, relative to it, and sizes it around them', async () => {
    const { positions, sizes = {} } = await layout(container, {});
    const b = boxes(container, positions, sizes);
    expect(sizes.iter).toBeDefined();
    expect(b.iter.x).toBeGreaterThanOrEqual(b.start.x + b.start.width);
    expect(b.end.x).toBeGreaterThanOrEqual(b.iter.x + b.iter.width);
    expectNoOverlaps(['start', 'iter', 'end'], b);
    const inner = ['iter-start', 'step', 'render'];
    expectNoOverlaps(inner, b);
    for (const id of inner) {
      // Relative to the container: inside its box, below its title bar.
      expect(b[id].x).toBeGreaterThanOrEqual(20);
      expect(b[id].y).toBeGreaterThanOrEqual(60);
      expect(b[id].x + b[id].width).toBeLessThanOrEqual(b.iter.width);
      expect(b[id].y + b[id].height).toBeLessThanOrEqual(b.iter.height);
    }
    expect(b.step.x).toBeGreaterThanOrEqual(b['iter-start'].x + b['iter-start'].width);
    expect(b.render.x).toBeGreaterThanOrEqual(b.step.x + b.step.width);
  });

  it('lays out only the chosen nodes when asked', async () => {
    const { positions, sizes = {} } = await layout(container, { nodeIds: ['step', 'render'] });
    expect(Object.keys(positions).sort()).toEqual(['render', 'step']);
    expect(sizes).toEqual({});
    expect(positions.render.x).toBeGreaterThan(positions.step.x);
  });

  it('answers an unchanged document from the last whole-flow layout, and lays out anew otherwise', async () => {
    const own = createLayout({ worker: false, registry });
    const first = own(branching, {});
    expect(own(branching, {})).toBe(first);
    expect(own(branching, { nodeIds: ['llm', 'code'] })).not.toBe(first);
    const moved = { ...branching, nodes: branching.nodes.map((n) => (n.id === 'end' ? { ...n, position: { x: 999, y: 999 } } : n)) };
    const second = own(moved, {});
    expect(second).not.toBe(first);
    expect(await second).toEqual(await createLayout({ worker: false, registry })(moved, {}));
  });

  it('preload lays a big flow out ahead (a small one only warms the engine up)', async () => {
    const chain = (n: number) =>
      FlowDocument.parse({
        schemaVersion: 1,
        mode: 'workflow',
        nodes: Array.from({ length: n }, (_, i) => node(`n${i}`, i === 0 ? 'start' : i === n - 1 ? 'end' : 'code')),
        edges: Array.from({ length: n - 1 }, (_, i) => createEdge(`n${i}`, `n${i + 1}`)),
        variables: { env: [], conversation: [] },
        notes: '',
      });
    const big = chain(SPECULATE_MIN_NODES);
    // Each layout run measures every node once: the count tells runs apart.
    let measured = 0;
    const own = createLayout({ worker: false, registry, measure: (n) => (measured++, defaultMeasure(n)) });
    own.preload(big);
    expect(measured).toBe(SPECULATE_MIN_NODES);
    // The preload's layout answers the tidy-up of the unchanged flow: no second run.
    const ahead = own(big, {});
    expect(measured).toBe(SPECULATE_MIN_NODES);
    expect(Object.keys((await ahead).positions)).toHaveLength(SPECULATE_MIN_NODES);
    const small = createLayout({ worker: false, registry });
    small.preload(branching);
    const fresh = small(branching, {});
    expect(small(branching, {})).toBe(fresh);
    await fresh;
  });

  it('uses the injected measure for node sizes', () => {
    const [job] = buildElkJobs(branching, { measure: () => ({ width: 111, height: 22 }) });
    const llm = job.graph.children?.find((c) => c.id === 'llm');
    expect([llm?.width, llm?.height]).toEqual([111, 22]);
  });

  it('is one undoable step through the layout command', async () => {
    const store = createFlowStore({ registry, mode: 'workflow', document: container });
    const clipboard: ClipboardAdapter = { read: async () => undefined, write: async () => undefined };
    const manager = createCommandManager({ store, commands: builtinCommands, context: { clipboard, layout }, isMac: false });
    const before = store.toDocument();
    expect(await manager.execute('layout')).toBe(true);
    const after = store.toDocument();
    expect(after.nodes.find((n) => n.id === 'end')?.position).not.toEqual(before.nodes.find((n) => n.id === 'end')?.position);
    expect(store.undo()).toBe(true);
    expect(store.toDocument()).toEqual(before);
  });
});
