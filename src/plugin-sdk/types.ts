import type { z } from 'zod';
import type { FlowDocument, FlowEdge, FlowMode, FlowNode, NodeConfig, ValueType } from '../../schemas/flow';
import type { DifyImportHook } from './dify';

/**
 * The node plugin contract, manifest side: everything here is plain data and functions, no React,
 * so the server and the engine can load plugins. The optional canvas body
 * and panel are typed in `./view.ts` and attached in the editor's list only.
 *
 * Functions that take a node's config are declared as methods on purpose: method parameters are
 * compared bivariantly, which lets a `NodePlugin<LlmConfig>` sit in a `NodePlugin[]` without `any`.
 */

export type { FlowDocument, FlowEdge, FlowMode, FlowNode, NodeConfig, ValueType };

/** Palette groups. */
export const NODE_CATEGORIES = ['basic', 'model', 'knowledge', 'logic', 'transform', 'tool', 'container', 'annotation'] as const;
export type NodeCategory = (typeof NODE_CATEGORIES)[number];

/** A lucide icon name in kebab-case (`'brain-circuit'`, bundled by the editor) or an inline SVG (`'<svg …>'`). */
export type NodeIcon = { lucide: string } | { svg: string };

/** A plugin's texts in one language: nested keys, string leaves, i18next `{{param}}` interpolation. */
export interface PluginMessages {
  [key: string]: string | PluginMessages;
}

/** The texts a plugin brings along, Chinese and English with the same keys. */
export interface PluginI18n {
  zh: PluginMessages;
  en: PluginMessages;
}

/**
 * An input or output of a node: a named, typed value. Outputs are what downstream nodes select
 * (`[nodeId, name, ...children names]`).
 */
export interface Port {
  /** An identifier (letters, digits, `_`), unique among the node's inputs or outputs. */
  name: string;
  type: ValueType;
  /** An i18n key in the plugin's namespace; without it the editor shows `label` or `name`. */
  labelKey?: string;
  /** A literal label (e.g. a name the builder typed). */
  label?: string;
  /** An i18n key of a longer explanation. */
  descriptionKey?: string;
  required?: boolean;
  /** Known fields of an `object` (or the elements of an `array[object]`), selectable by path. */
  children?: Port[];
}

/** A source handle (an outgoing branch) of a node. */
export interface HandleSpec {
  /** `source` for the plain next step; case ids, class ids, `fail-branch` for branches. */
  id: string;
  labelKey?: string;
  /** A literal label (e.g. a classifier class the builder named). */
  label?: string;
}

/** Workspace resources a summary row may name by id (shown by name once the editor knows it). */
export type SummaryResource = 'knowledgeBases' | 'tools' | 'mcpServers';

/**
 * One line of a node's summary on the canvas (what Dify shows under a node's title: its model, its
 * knowledge bases, its condition count, the first line of its code). Plain data: the node shell
 * translates the keys (the plugin's namespace) and resolves the resources.
 */
export interface NodeSummaryRow {
  /** An i18n key of a short label before the text (`'summary.url'`). */
  labelKey?: string;
  /** Literal text: a model name, a URL, a line of code (cut to one line by the canvas). */
  text?: string;
  /** An i18n key instead of `text`, with its params (`'summary.conditions'`, `{ count: 3 }`). */
  textKey?: string;
  params?: Record<string, string | number>;
  /** Workspace resources by id, joined by name (the id while the name is unknown). */
  refs?: { resource: SummaryResource; ids: readonly string[] };
  /** Monospaced (code, URLs). */
  mono?: boolean;
}

/** Iteration and loop: a container with its own start node inside. */
export interface ContainerSpec {
  /** Kind of the child start node created inside a new container (e.g. `'iteration-start'`). */
  startKind: string;
  /** True for loops: the config has a break condition the editor and engine honour. */
  breakCondition?: boolean;
  /** Size of a new container. */
  defaultSize?: { width: number; height: number };
}

/**
 * One step of a plugin's config migration, from version `from` to `from + 1`. Steps run in order
 * from the saved node's `kindVersion` up to the plugin's `version`.
 */
export interface NodeMigration {
  from: number;
  /** The config at `from` → the config at `from + 1`. Must not mutate its argument. */
  up(config: NodeConfig): NodeConfig;
  /** An example config at version `from`, used by the contract test (default `{}`). */
  sample?: NodeConfig;
}

export type IssueSeverity = 'error' | 'warning';

/** What a plugin's `validate` returns: an i18n key in the plugin's namespace, with params. */
export interface PluginIssue {
  /** E.g. `'issues.modelMissing'`; must exist in the plugin's `i18n` (zh and en). */
  key: string;
  params?: Record<string, string | number>;
  /** Where in the config (for the inspector to highlight), e.g. `['cases', 0, 'conditions']`. */
  path?: (string | number)[];
  /** Default `'error'` (an error stops the flow from running; a warning does not). */
  severity?: IssueSeverity;
}

/** An issue as the registry reports it (checklist entries): with the node and the i18n namespace. */
export interface NodeIssue {
  nodeId: string;
  /** The i18n namespace of `key`: the plugin's, or the SDK's (`SDK_NAMESPACE`) for common checks. */
  ns: string;
  key: string;
  params?: Record<string, string | number>;
  path?: (string | number)[];
  severity: IssueSeverity;
}

/**
 * A read-only view of a flow with lookups, handed to `validate` and port functions.
 * Built once per document by `createFlowGraph(doc)` (cheap indexes).
 */
export interface FlowGraph {
  readonly document: FlowDocument;
  readonly mode: FlowMode;
  readonly nodes: readonly FlowNode[];
  readonly edges: readonly FlowEdge[];
  node(id: string): FlowNode | undefined;
  incoming(id: string): readonly FlowEdge[];
  outgoing(id: string): readonly FlowEdge[];
  /** Nodes directly inside a container; `null` = the top level. */
  children(parentId: string | null): readonly FlowNode[];
  /**
   * Nodes whose outputs a node may use: those it can be reached from along edges in its own
   * container, and, for a node inside a container, the container itself and the container's
   * upstream nodes (nearest first, each once).
   */
  upstream(id: string): readonly FlowNode[];
}

/** What a port function gets besides the config. */
export interface PortContext {
  node: FlowNode;
  /** Absent when ports are asked for a node alone (e.g. in the palette). */
  graph?: FlowGraph;
  /** The value type a selector points at in the graph (e.g. for an aggregator's output type). */
  typeOf(selector: readonly string[]): ValueType | undefined;
}

/** A list fixed by the plugin or computed from the node's config. */
export type Computed<C, R> = R | { fn(config: C, ctx: PortContext): R }['fn'];

/**
 * What a plugin author writes (see `defineNodePlugin`). `C` is the config type, inferred from
 * `configSchema`.
 */
export interface NodePluginDefinition<C extends NodeConfig> {
  /** The node kind, unique in the registry: lower-case words joined by `-` (`'http-request'`). */
  kind: string;
  /** An integer ≥ 1; raise it when the config shape changes, and add a migration. */
  version: number;
  category: NodeCategory;
  icon: NodeIcon;
  /** An accent colour for the icon tile (a CSS colour or `var(--token)`). */
  color?: string;
  /** Texts in zh and en. Must hold the title and description keys, and every issue key. */
  i18n: PluginI18n;
  /** Key of the node kind's title in `i18n` (default `'title'`). */
  titleKey?: string;
  /** Key of its one-line description (default `'description'`). */
  descriptionKey?: string;
  /**
   * The config schema. Every field has a default, so `configSchema.parse({})` is a valid new
   * node's config (required-to-run fields default to empty and are reported by `validate`).
   * Selector fields use `Selector`/`MaybeSelector`, text fields with references `Template`.
   */
  configSchema: z.ZodType<C>;
  /** Modes the kind may appear in (default: all). */
  modes?: readonly FlowMode[];
  /** Declared inputs (default none). */
  inputs?: Computed<C, Port[]>;
  /** What the node produces for downstream nodes (default none). */
  outputs?: Computed<C, Port[]>;
  /**
   * Containers only: what nodes inside see of the container (iteration: `item`, `index`; loop: its
   * loop variables), selected as `[containerId, name]`. Default none.
   */
  innerOutputs?: Computed<C, Port[]>;
  /** Outgoing branches (default `[{ id: 'source' }]`; `[]` for a node with no way out, like end). */
  sourceHandles?: Computed<C, HandleSpec[]>;
  /** Whether the node can be connected to (default true; false for start). */
  targetHandle?: boolean;
  /** Extra checks against the graph (config already parsed with the schema). */
  validate?(node: FlowNode<C>, graph: FlowGraph): PluginIssue[];
  /**
   * What the node shows under its title on the canvas (a few short rows; none by default). Called
   * with the parsed config, once per config change (the canvas memoises it), so keep it cheap and
   * pure: no graph, no I/O.
   * @example summary: (c) => (c.url ? [{ text: `${c.method.toUpperCase()} ${c.url}`, mono: true }] : [])
   */
  summary?(config: C): NodeSummaryRow[];
  /** Steps from each older version (`from` 1 … `version - 1`). */
  migrations?: readonly NodeMigration[];
  /** Present on iteration and loop. */
  container?: ContainerSpec;
  /** Where the node may sit: `'root'` (top level) and/or container kinds. Default: anywhere. */
  parents?: readonly string[];
  /** At most one per container scope (start, iteration-start). Default false. */
  singleton?: boolean;
  /** Whether the builder may delete it (default true; false for start and container starts). */
  deletable?: boolean;
  /** Whether the palette offers it (default true; false for kinds created by a container). */
  palette?: boolean;
  /** Imports Dify nodes into this kind (Dify flow files); without it Dify's nodes of its type are left out. */
  dify?: DifyImportHook;
}

/** A defined plugin: the definition with every default filled in and ports as methods. */
export interface NodePlugin<C extends NodeConfig = NodeConfig> {
  readonly kind: string;
  readonly version: number;
  readonly category: NodeCategory;
  readonly icon: NodeIcon;
  readonly color?: string;
  readonly i18n: PluginI18n;
  /** The i18n namespace the plugin's texts live in: `node-<kind>`. */
  readonly ns: string;
  readonly titleKey: string;
  readonly descriptionKey: string;
  readonly configSchema: z.ZodType<C>;
  readonly modes: readonly FlowMode[];
  readonly migrations: readonly NodeMigration[];
  readonly container?: ContainerSpec;
  readonly parents?: readonly string[];
  readonly singleton: boolean;
  readonly deletable: boolean;
  readonly palette: boolean;
  readonly targetHandle: boolean;
  readonly dify?: DifyImportHook;
  inputs(config: C, ctx: PortContext): Port[];
  outputs(config: C, ctx: PortContext): Port[];
  innerOutputs(config: C, ctx: PortContext): Port[];
  sourceHandles(config: C, ctx: PortContext): HandleSpec[];
  validate(node: FlowNode<C>, graph: FlowGraph): PluginIssue[];
  summary(config: C): NodeSummaryRow[];
}

/** Any plugin, whatever its config type (what lists and the registry hold). */
export type AnyNodePlugin = NodePlugin<NodeConfig>;

/** The config type of a plugin. */
export type ConfigOf<P> = P extends NodePlugin<infer C> ? C : never;
