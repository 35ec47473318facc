import {
  createEmptyFlow,
  EMPTY_FLOW_KINDS,
  FlowDocument,
  HANDLE_ID_RE,
  NODE_KIND_RE,
  PATH_SEGMENT_RE,
  VALUE_TYPES,
  type FlowMode,
  type FlowNode,
  type NodeConfig,
} from '../../schemas/flow';
import { createFlowGraph } from './graph';
import { createNodeRegistry, type NodeRegistry } from './registry';
import { NODE_CATEGORIES, type AnyNodePlugin, type PluginMessages, type Port } from './types';

/** One broken rule of the plugin contract. */
export interface ContractProblem {
  check: 'definition' | 'i18n' | 'defaults' | 'migrations' | 'ports' | 'handles' | 'validate' | 'container' | 'summary';
  message: string;
}

export interface ContractOptions {
  /**
   * Other plugins the checked one works with (e.g. a container's start kind): they join the
   * registry the checks run in.
   */
  companions?: readonly AnyNodePlugin[];
}

function leaves(messages: PluginMessages, prefix = '', out = new Map<string, unknown>()) {
  for (const [k, v] of Object.entries(messages)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === 'object') leaves(v, key, out);
    else out.set(key, v);
  }
  return out;
}

const json = (v: unknown) => JSON.stringify(v);

function checkPorts(list: unknown, what: string, problems: ContractProblem[]) {
  if (!Array.isArray(list)) {
    problems.push({ check: 'ports', message: `${what} is not a list` });
    return;
  }
  const names = new Set<string>();
  for (const p of list as Port[]) {
    if (!PATH_SEGMENT_RE.test(p.name)) problems.push({ check: 'ports', message: `${what}: "${p.name}" is not an identifier` });
    if (names.has(p.name)) problems.push({ check: 'ports', message: `${what}: "${p.name}" appears twice` });
    names.add(p.name);
    if (!(VALUE_TYPES as readonly string[]).includes(p.type)) problems.push({ check: 'ports', message: `${what}: "${p.name}" has an unknown type ${p.type}` });
    if (p.children) checkPorts(p.children, `${what}.${p.name}`, problems);
  }
}

/** A small document of the mode holding the plugin's default node (and a container's start). */
function minimalFlow(registry: NodeRegistry, plugin: AnyNodePlugin, mode: FlowMode): { doc: FlowDocument; node: FlowNode } {
  const base = createEmptyFlow(mode);
  const id = EMPTY_FLOW_KINDS[mode].includes(plugin.kind) ? plugin.kind : 'contract_node';
  const others = base.nodes.filter((n) => n.id !== id);
  let parent: FlowNode | undefined;
  // A kind that lives only inside some container gets one, when the registry knows it.
  const containerKind = plugin.parents && !plugin.parents.includes('root') ? plugin.parents.find((k) => registry.get(k)?.container) : undefined;
  if (containerKind) parent = registry.createNode(containerKind, { id: 'contract_parent', position: { x: 0, y: 600 } }).node;
  const { node, children } = registry.createNode(plugin.kind, { id, position: { x: 0, y: 400 }, parentId: parent?.id });
  const nodes = [...others, ...(parent ? [parent] : []), node, ...children];
  const ids = new Set(nodes.map((n) => n.id));
  const doc = FlowDocument.parse({ ...base, nodes, edges: base.edges.filter((e) => ids.has(e.source) && ids.has(e.target)) });
  return { doc, node };
}

/**
 * Checks a plugin against the contract every node kind keeps, and returns what is broken (empty
 * when all is well):
 * - definition: kind, integer version, category, icon, modes;
 * - i18n: zh and en hold the same keys, non-empty, with the title and description;
 * - defaults: `configSchema.parse({})` succeeds, is JSON, and parses to itself;
 * - migrations: one step from each version 1 … version-1, and every older version's sample
 *   (default `{}`) migrates to a config the schema accepts;
 * - ports and handles compute from the defaults without throwing, with valid, unique names;
 * - validate runs on the default node in a minimal flow of each of its modes without throwing, and
 *   every issue key it returns has zh and en texts;
 * - summary returns a list of rows for the defaults, and its label and text keys have zh and en texts.
 *
 * @example
 * // plugins/acme-weather/manifest.test.ts
 * it('keeps the plugin contract', () => expect(runPluginContract(weather)).toEqual([]));
 */
export function runPluginContract(plugin: AnyNodePlugin, opts: ContractOptions = {}): ContractProblem[] {
  const problems: ContractProblem[] = [];
  const fail = (check: ContractProblem['check'], message: string) => problems.push({ check, message });

  // definition
  if (!NODE_KIND_RE.test(plugin.kind)) fail('definition', `kind "${plugin.kind}" is not lower-case words joined by - or _`);
  if (!Number.isInteger(plugin.version) || plugin.version < 1) fail('definition', `version ${plugin.version} is not an integer >= 1`);
  if (!(NODE_CATEGORIES as readonly string[]).includes(plugin.category)) fail('definition', `unknown category ${plugin.category}`);
  if ('lucide' in plugin.icon ? !/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(plugin.icon.lucide) : !/^\s*<svg[\s>]/i.test(plugin.icon.svg)) {
    fail('definition', 'icon must be a kebab-case lucide name or an <svg> string');
  }
  if (!plugin.modes.length) fail('definition', 'modes is empty');

  // i18n
  const zh = leaves(plugin.i18n.zh);
  const en = leaves(plugin.i18n.en);
  for (const [a, b, name] of [[zh, en, 'en'], [en, zh, 'zh']] as const) {
    for (const key of a.keys()) if (!b.has(key)) fail('i18n', `"${key}" has no ${name} text`);
  }
  for (const [key, value] of [...zh, ...en]) if (typeof value !== 'string' || !value.trim()) fail('i18n', `"${key}" is empty`);
  for (const key of [plugin.titleKey, plugin.descriptionKey]) {
    if (!zh.has(key) || !en.has(key)) fail('i18n', `the ${key === plugin.titleKey ? 'title' : 'description'} key "${key}" has no zh and en text`);
  }

  // defaults
  let defaults: NodeConfig | undefined;
  const parsed = plugin.configSchema.safeParse({});
  if (!parsed.success) {
    fail('defaults', `configSchema.parse({}) fails: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'} ${i.message}`).join('; ')}`);
  } else {
    defaults = parsed.data;
    if (json(JSON.parse(json(defaults))) !== json(defaults)) fail('defaults', 'the defaults are not plain JSON');
    const again = plugin.configSchema.safeParse(JSON.parse(json(defaults)));
    if (!again.success || json(again.data) !== json(defaults)) fail('defaults', 'the defaults do not parse to themselves');
  }

  // migrations
  const froms = plugin.migrations.map((m) => m.from);
  for (let v = 1; v < plugin.version; v++) {
    const n = froms.filter((f) => f === v).length;
    if (n !== 1) fail('migrations', n ? `${n} migrations from version ${v}` : `no migration from version ${v}`);
  }
  for (const f of froms) if (f < 1 || f >= plugin.version || !Number.isInteger(f)) fail('migrations', `a migration from version ${f} (current is ${plugin.version})`);

  let registry: NodeRegistry;
  try {
    registry = createNodeRegistry([...(opts.companions ?? []).filter((c) => c.kind !== plugin.kind), plugin]);
  } catch (e) {
    fail('definition', (e as Error).message);
    return problems;
  }
  for (const m of plugin.migrations) {
    if (m.from < 1 || m.from >= plugin.version) continue;
    const sample = m.sample ?? {};
    const before = json(sample);
    try {
      const node: FlowNode = { id: 'n', kind: plugin.kind, kindVersion: m.from, title: '', position: { x: 0, y: 0 }, config: sample };
      const migrated = registry.migrate(node);
      if (json(sample) !== before) fail('migrations', `the migration from version ${m.from} changed its input`);
      if (migrated.kindVersion !== plugin.version) fail('migrations', `from version ${m.from} it ends at ${migrated.kindVersion}`);
      const ok = plugin.configSchema.safeParse(migrated.config);
      if (!ok.success) fail('migrations', `from version ${m.from} the result does not fit the schema: ${ok.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`);
    } catch (e) {
      fail('migrations', `from version ${m.from}: ${(e as Error).message}`);
    }
  }

  if (!defaults) return problems;

  // container
  if (plugin.container && !registry.get(plugin.container.startKind)) {
    fail('container', `the start kind "${plugin.container.startKind}" is not given (pass it in opts.companions)`);
    return problems;
  }

  // ports, handles, validate, per mode
  for (const mode of plugin.modes) {
    let flow: { doc: FlowDocument; node: FlowNode };
    try {
      flow = minimalFlow(registry, plugin, mode);
    } catch (e) {
      fail('validate', `no minimal ${mode} flow could hold the node: ${(e as Error).message}`);
      continue;
    }
    const graph = createFlowGraph(flow.doc);
    const ctx = { node: flow.node, graph, typeOf: (s: readonly string[]) => registry.typeOf(s, graph, flow.node.id) };
    for (const which of ['inputs', 'outputs', 'innerOutputs'] as const) {
      try {
        checkPorts(plugin[which](defaults, ctx), `${which} (${mode})`, problems);
      } catch (e) {
        fail('ports', `${which} throws in ${mode}: ${(e as Error).message}`);
      }
    }
    try {
      const handles = plugin.sourceHandles(defaults, ctx);
      const ids = handles.map((h) => h.id);
      for (const id of ids) if (!HANDLE_ID_RE.test(id)) fail('handles', `handle id "${id}" is not valid`);
      if (new Set(ids).size !== ids.length) fail('handles', `handle ids repeat: ${ids.join(', ')}`);
    } catch (e) {
      fail('handles', `sourceHandles throws in ${mode}: ${(e as Error).message}`);
    }
    try {
      const issues = plugin.validate(flow.node, graph);
      if (!Array.isArray(issues)) fail('validate', `validate returned no list in ${mode}`);
      else for (const i of issues) if (!zh.has(i.key) || !en.has(i.key)) fail('i18n', `issue key "${i.key}" has no zh and en text`);
      registry.validateNode(flow.node, graph);
    } catch (e) {
      fail('validate', `validate throws in ${mode}: ${(e as Error).message}`);
    }
  }
  // summary
  if (defaults) {
    try {
      const rows = plugin.summary(defaults);
      if (!Array.isArray(rows)) fail('summary', 'summary returned no list for the defaults');
      else
        for (const key of rows.flatMap((r) => [r.labelKey, r.textKey]).filter((k): k is string => !!k)) {
          if (!zh.has(key) || !en.has(key)) fail('i18n', `summary key "${key}" has no zh and en text`);
        }
    } catch (e) {
      fail('summary', `summary throws for the defaults: ${(e as Error).message}`);
    }
  }
  return problems;
}

/** `runPluginContract` that throws one error listing every problem (for `it.each` over a plugin list). */
export function assertPluginContract(plugin: AnyNodePlugin, opts?: ContractOptions): void {
  const problems = runPluginContract(plugin, opts);
  if (problems.length) {
    throw new Error(`Node plugin "${plugin.kind}" breaks its contract:\n${problems.map((p) => `- [${p.check}] ${p.message}`).join('\n')}`);
  }
}
