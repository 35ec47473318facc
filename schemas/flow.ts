import { z } from 'zod';

/**
 * The flow document: what an app's canvas saves (ARCHITECTURE.md "The flow document").
 *
 * ```
 * { schemaVersion, mode,
 *   nodes: [{ id, kind, kindVersion, title, position: {x, y}, config, parentId?, width?, height? }],
 *   edges: [{ id, source, sourceHandle, target, targetHandle }],
 *   variables: { env: [...], conversation: [...] },
 *   notes, features }
 * ```
 *
 * JSON only and no view state: selection, hover, run status and the like live in the editor's store,
 * never here (every object is `.strict()`, so a stray `selected` or `_runningStatus` is refused).
 * A node's `config` belongs to its kind's plugin (validated by the plugin registry, not here);
 * this schema checks the structure every kind shares: ids, references between nodes and edges,
 * containers, variables and limits.
 *
 * References to values: a *selector* `[nodeId, ...path]` (e.g. `['llm1', 'text']`,
 * `['sys', 'query']`, `['env', 'API_KEY']`, `['conversation', 'topic']`) and, inside text, the
 * Dify syntax `{{#nodeId.path#}}` (e.g. `{{#llm1.text#}}`, `{{#sys.query#}}`), so Dify DSL files
 * import as they are.
 *
 * Imports nothing but zod (it is part of the contract in `schemas/`).
 */

// ------------------------------------------------------------------ modes

/** App modes (spec 9). The flow document's mode is its app's type. */
export const FlowMode = z.enum(['agent', 'chatflow', 'workflow', 'agent_team']);
export type FlowMode = z.infer<typeof FlowMode>;
export const FLOW_MODES = FlowMode.options;

/** Modes that run as a conversation (they have `sys.query`, `sys.conversation_id` and conversation variables). */
export const CHAT_MODES: readonly FlowMode[] = ['agent', 'chatflow', 'agent_team'];
export const isChatMode = (mode: FlowMode) => CHAT_MODES.includes(mode);

/**
 * Agent teams: a top-level agent with no edge in or out is a team member. It is not a step of the
 * run (the checklist does not call it unconnected, the engine does not schedule it): the agent the
 * run reaches hands the conversation to it (`handoffs`). Callers check the "no edge" part.
 * @example const members = doc.nodes.filter((n) => isTeamMemberKind(doc.mode, n) && !linked.has(n.id));
 */
export const isTeamMemberKind = (mode: FlowMode, node: { kind: string; parentId?: string | null }) => mode === 'agent_team' && node.kind === 'agent' && !node.parentId;

/** Version of the document's own shape (not of node kinds, which carry `kindVersion`). */
export const FLOW_SCHEMA_VERSION = 1;

/** Limits a saved document must keep (the server refuses larger ones with a clear message). */
export const FLOW_LIMITS = {
  /** Serialised JSON size in bytes (5 MB). */
  maxBytes: 5 * 1024 * 1024,
  maxNodes: 5000,
  maxEdges: 20000,
  /** Per list: environment variables, conversation variables. */
  maxVariables: 200,
  maxNotesLength: 100_000,
} as const;

// ------------------------------------------------------------------ value types

/** Scalar value types a port, variable or output may have. */
export const SCALAR_VALUE_TYPES = ['string', 'number', 'boolean', 'object', 'file'] as const;
export type ScalarValueType = (typeof SCALAR_VALUE_TYPES)[number];
export type ArrayValueType = `array[${ScalarValueType}]`;

/** Every value type: the scalars and an array of each (`array[string]`, `array[file]` …). */
export const VALUE_TYPES = [...SCALAR_VALUE_TYPES, ...SCALAR_VALUE_TYPES.map((t) => `array[${t}]` as ArrayValueType)] as [
  ScalarValueType | ArrayValueType,
  ...(ScalarValueType | ArrayValueType)[],
];
export const ValueType = z.enum(VALUE_TYPES);
export type ValueType = ScalarValueType | ArrayValueType;

export const isArrayType = (t: ValueType): t is ArrayValueType => t.startsWith('array[');
/** `array[string]` → `string`; a scalar → undefined. */
export const elementType = (t: ValueType): ScalarValueType | undefined =>
  isArrayType(t) ? (t.slice(6, -1) as ScalarValueType) : undefined;
export const arrayOf = (t: ScalarValueType): ArrayValueType => `array[${t}]`;

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Whether a JSON value fits a value type. A `file` is an object with at least `url` or `id`
 * (a file reference, spec 3 File: id, name, url, contentType, ext).
 */
export function matchesValueType(value: unknown, type: ValueType): boolean {
  const el = elementType(type);
  if (el) return Array.isArray(value) && value.every((v) => matchesValueType(v, el));
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'object':
      return isPlainObject(value);
    case 'file':
      return isPlainObject(value) && (typeof value.url === 'string' || typeof value.id === 'string');
    default:
      return false;
  }
}

/** The empty value of a type: '' / 0 / false / {} / null for a file / []. */
export function defaultValueFor(type: ValueType): unknown {
  if (isArrayType(type)) return [];
  return { string: '', number: 0, boolean: false, object: {}, file: null }[type];
}

// ------------------------------------------------------------------ ids and references

/**
 * Node ids: letters, digits, `_` and `-`, at most 64 (Dify's numeric ids fit). They appear in
 * selectors and in `{{#nodeId.path#}}`, so no dots or `#`.
 */
export const NODE_ID_RE = /^[A-Za-z0-9_-]{1,64}$/;
/** A path segment after the node id (an output or variable name): like an identifier. */
export const PATH_SEGMENT_RE = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
/** Variable names (environment, conversation, start inputs): the same rule as path segments. */
export const VARIABLE_NAME_RE = PATH_SEGMENT_RE;
/** Node kinds: lower-case words joined by `-` or `_` (`llm`, `if-else`, `acme-weather`). */
export const NODE_KIND_RE = /^[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*$/;
/** Handle ids (if-else case ids, classifier class ids, `source`, `fail-branch` …). */
export const HANDLE_ID_RE = /^[A-Za-z0-9_-]{1,64}$/;

/** The namespaces a selector may start with instead of a node id. */
export const VARIABLE_NAMESPACES = ['sys', 'env', 'conversation'] as const;
export type VariableNamespace = (typeof VARIABLE_NAMESPACES)[number];
const isNamespace = (s: string): s is VariableNamespace => (VARIABLE_NAMESPACES as readonly string[]).includes(s);

/** Default handle ids of an edge (as in Dify). */
export const DEFAULT_SOURCE_HANDLE = 'source';
export const DEFAULT_TARGET_HANDLE = 'target';
/** The extra source handle of a node whose error strategy is "fail branch". */
export const FAIL_BRANCH_HANDLE = 'fail-branch';

export const NodeId = z
  .string()
  .regex(NODE_ID_RE, 'A node id has 1 to 64 letters, digits, _ or -')
  .refine((id) => !isNamespace(id), 'sys, env and conversation are reserved and cannot be node ids');
export const NodeKind = z.string().regex(NODE_KIND_RE, 'A node kind is lower-case words joined by - or _').max(64);
export const HandleId = z.string().regex(HANDLE_ID_RE, 'A handle id has 1 to 64 letters, digits, _ or -');
export const VariableName = z.string().regex(VARIABLE_NAME_RE, 'Use letters, digits and _, not starting with a digit (at most 64)');

/**
 * Roles of config fields, for tools that walk a plugin's config schema: the reference walker
 * (`plugin-sdk/references.ts`: paste remapping, broken-reference checks) finds selectors by this
 * registry, and the inspector picks the variable picker or the template editor by it.
 * `.register()` returns the same schema, so wrap a registered schema (`.optional()`, `.default()`),
 * do not clone it with `.describe()`/`.meta()` (a clone is not registered).
 */
export const flowFields = z.registry<{ role: 'selector' | 'template' }>();

const selectorIssue = 'A selector is [nodeId or sys/env/conversation, ...path] with identifier path segments';
const isSelectorShape = (v: readonly string[]) =>
  v.length >= 2 && v.length <= 11 && NODE_ID_RE.test(v[0]) && v.slice(1).every((s) => PATH_SEGMENT_RE.test(s));

/**
 * A reference to a value: `[nodeId, ...path]` or `['sys' | 'env' | 'conversation', name, ...]`.
 * @example ['llm1', 'text'], ['sys', 'query'], ['http1', 'body', 'items']
 */
export const Selector = z
  .array(z.string())
  .refine(isSelectorShape, selectorIssue)
  .register(flowFields, { role: 'selector' });
export type Selector = string[];

/** A selector field that may still be empty (`[]`): the usual type of a not-yet-chosen variable in a config. */
export const MaybeSelector = z
  .array(z.string())
  .refine((v) => v.length === 0 || isSelectorShape(v), selectorIssue)
  .register(flowFields, { role: 'selector' });

/** A text field that may contain `{{#nodeId.path#}}` references (the inspector offers autocompletion). */
export const Template = z.string().register(flowFields, { role: 'template' });

export function isSelector(value: unknown): value is Selector {
  return Array.isArray(value) && value.every((s) => typeof s === 'string') && isSelectorShape(value as string[]);
}

/** What a selector points at: a system, environment or conversation variable, or a node's output. */
export function selectorNamespace(selector: readonly string[]): VariableNamespace | 'node' {
  return isNamespace(selector[0]) ? selector[0] : 'node';
}

export const selectorsEqual = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((s, i) => s === b[i]);

/** One `{{#nodeId.path#}}` found in a text. `start`/`end` are string offsets (`end` exclusive). */
export interface TextReference {
  /** The node id or the namespace (`sys`, `env`, `conversation`). */
  nodeId: string;
  path: string[];
  /** `[nodeId, ...path]`. */
  selector: string[];
  start: number;
  end: number;
  /** The matched text, `{{#…#}}` included. */
  text: string;
}

const TEXT_REFERENCE_SOURCE = '\\{\\{#([A-Za-z0-9_-]{1,64})((?:\\.[A-Za-z_][A-Za-z0-9_]{0,63}){1,10})#\\}\\}';
/** Matches one `{{#nodeId.path#}}` (a new global RegExp each call: no shared `lastIndex`). */
export const textReferencePattern = () => new RegExp(TEXT_REFERENCE_SOURCE, 'g');

/**
 * Every `{{#nodeId.path#}}` in a text, in order.
 * @example parseTextReferences('Hi {{#sys.query#}}') // → [{ nodeId: 'sys', path: ['query'], selector: ['sys','query'], start: 3, end: 18, text: '{{#sys.query#}}' }]
 */
export function parseTextReferences(text: string): TextReference[] {
  const out: TextReference[] = [];
  for (const m of text.matchAll(textReferencePattern())) {
    const path = m[2].slice(1).split('.');
    out.push({ nodeId: m[1], path, selector: [m[1], ...path], start: m.index, end: m.index + m[0].length, text: m[0] });
  }
  return out;
}

/** `['llm1', 'text']` → `'{{#llm1.text#}}'`. */
export const formatTextReference = (selector: readonly string[]) => `{{#${selector.join('.')}#}}`;

/**
 * Rewrites each reference in a text: `fn` returns the new selector, or undefined to keep it.
 * @example mapTextReferences('{{#a.x#}}', (r) => (r.nodeId === 'a' ? ['b', ...r.path] : undefined)) // '{{#b.x#}}'
 */
export function mapTextReferences(text: string, fn: (ref: TextReference) => readonly string[] | undefined): string {
  const refs = parseTextReferences(text);
  if (!refs.length) return text;
  let out = '';
  let at = 0;
  for (const r of refs) {
    const next = fn(r);
    out += text.slice(at, r.start) + (next ? formatTextReference(next) : r.text);
    at = r.end;
  }
  return out + text.slice(at);
}

/** A node-id mapping: old id → new id. */
export type IdMap = Readonly<Record<string, string>> | ReadonlyMap<string, string>;
export const lookupId = (map: IdMap, id: string): string | undefined =>
  map instanceof Map ? map.get(id) : Object.prototype.hasOwnProperty.call(map, id) ? (map as Record<string, string>)[id] : undefined;

/**
 * Replaces node ids in the `{{#nodeId.path#}}` references of a text (paste with new ids, id changes).
 * Ids not in the map, and the sys/env/conversation namespaces, stay.
 * @example replaceReferences('{{#a.text#}} and {{#sys.query#}}', { a: 'b' }) // '{{#b.text#}} and {{#sys.query#}}'
 */
export function replaceReferences(text: string, idMap: IdMap): string {
  return mapTextReferences(text, (r) => {
    const to = isNamespace(r.nodeId) ? undefined : lookupId(idMap, r.nodeId);
    return to === undefined ? undefined : [to, ...r.path];
  });
}

// ------------------------------------------------------------------ system variables

export interface SystemVariable {
  name: string;
  type: ValueType;
  /** Modes that have it. */
  modes: readonly FlowMode[];
}

/** `sys.*` variables every run provides (`['sys', name]`). */
export const SYSTEM_VARIABLES: readonly SystemVariable[] = [
  { name: 'query', type: 'string', modes: CHAT_MODES },
  { name: 'files', type: 'array[file]', modes: FLOW_MODES },
  { name: 'conversation_id', type: 'string', modes: CHAT_MODES },
  /** The turn of the conversation this run answers: 1 for the first message (Dify's sys.dialogue_count). */
  { name: 'dialogue_count', type: 'number', modes: CHAT_MODES },
  { name: 'user_id', type: 'string', modes: FLOW_MODES },
  { name: 'app_id', type: 'string', modes: FLOW_MODES },
  { name: 'workflow_run_id', type: 'string', modes: FLOW_MODES },
];

/** The `sys.*` variables of a mode (workflow has no query or conversation id). */
export const systemVariables = (mode: FlowMode) => SYSTEM_VARIABLES.filter((v) => v.modes.includes(mode));

// ------------------------------------------------------------------ document parts

/** A node's configuration: owned by its kind's plugin (its zod schema validates it). */
export type NodeConfig = Record<string, unknown>;

const coordinate = z.number().min(-1e7).max(1e7);
export const Position = z.object({ x: coordinate, y: coordinate }).strict();
export type Position = z.infer<typeof Position>;

export const FlowNode = z
  .object({
    id: NodeId,
    kind: NodeKind,
    /** The plugin version the config was written for; the registry migrates older ones on load. */
    kindVersion: z.number().int().min(1),
    /** Shown on the node; an empty title means "the kind's translated title". */
    title: z.string().max(200),
    position: Position,
    config: z.record(z.string(), z.unknown()),
    /** The iteration/loop container this node sits in (position is then relative to it). */
    parentId: NodeId.optional(),
    /** Size of containers and notes (other nodes size to their content). */
    width: z.number().positive().max(1e6).optional(),
    height: z.number().positive().max(1e6).optional(),
  })
  .strict();
/** A node; `C` types the config for code that knows the kind. */
export type FlowNode<C extends NodeConfig = NodeConfig> = Omit<z.infer<typeof FlowNode>, 'config'> & { config: C };

export const FlowEdge = z
  .object({
    id: z.string().min(1).max(300),
    source: NodeId,
    /** `source`, or a branch: an if-else case id, a classifier class id, `fail-branch` … */
    sourceHandle: HandleId,
    target: NodeId,
    targetHandle: HandleId,
  })
  .strict();
export type FlowEdge = z.infer<typeof FlowEdge>;

/** The id Weft gives an edge: `${source}-${sourceHandle}-${target}-${targetHandle}` (Dify's form). */
export const edgeId = (source: string, sourceHandle: string, target: string, targetHandle: string) =>
  `${source}-${sourceHandle}-${target}-${targetHandle}`;

/** An edge with default handles and the conventional id. */
export function createEdge(
  source: string,
  target: string,
  sourceHandle: string = DEFAULT_SOURCE_HANDLE,
  targetHandle: string = DEFAULT_TARGET_HANDLE,
): FlowEdge {
  return { id: edgeId(source, sourceHandle, target, targetHandle), source, sourceHandle, target, targetHandle };
}

const VariableId = z.string().regex(NODE_ID_RE, 'A variable id has 1 to 64 letters, digits, _ or -');
const description = z.string().max(500).default('');

/**
 * Environment variables (`['env', name]`): constants of the app, typed string, number or secret.
 *
 * Secrets are write-only. The saved document never holds a secret's value: the server keeps it
 * encrypted beside the draft (by variable id) and answers documents without it. When saving, a
 * secret variable with a `value` sets (replaces) it; one without `value` keeps what is stored.
 * The draft's answer lists which secrets hold a value (`secrets_set`). Runs read the value as a string.
 */
export const EnvVariable = z.discriminatedUnion('type', [
  z.object({ id: VariableId, name: VariableName, type: z.literal('string'), value: z.string().max(10_000), description }).strict(),
  z.object({ id: VariableId, name: VariableName, type: z.literal('number'), value: z.number(), description }).strict(),
  z
    .object({
      id: VariableId,
      name: VariableName,
      type: z.literal('secret'),
      /** Write-only: sent to set the secret, never answered. */
      value: z.string().max(10_000).optional(),
      description,
    })
    .strict(),
]);
export type EnvVariable = z.infer<typeof EnvVariable>;
export type EnvVariableType = EnvVariable['type'];

/** Types a conversation variable may have. */
export const CONVERSATION_VALUE_TYPES = [
  'string',
  'number',
  'boolean',
  'object',
  'array[string]',
  'array[number]',
  'array[boolean]',
  'array[object]',
] as const satisfies readonly ValueType[];
export const ConversationValueType = z.enum(CONVERSATION_VALUE_TYPES);

/**
 * Conversation variables (`['conversation', name]`, chat modes only): state that lives for one
 * conversation, starting at `value` (its default) and changed by variable-assigner nodes.
 */
export const ConversationVariable = z
  .object({
    id: VariableId,
    name: VariableName,
    type: ConversationValueType,
    /** The default value; must fit `type`. */
    value: z.unknown(),
    description,
  })
  .strict()
  .superRefine((v, ctx) => {
    if (!matchesValueType(v.value, v.type)) {
      ctx.addIssue({ code: 'custom', path: ['value'], message: `The default value does not fit the type ${v.type}` });
    }
  });
export type ConversationVariable = z.infer<typeof ConversationVariable>;

export const FlowVariables = z
  .object({
    env: z.array(EnvVariable).max(FLOW_LIMITS.maxVariables).default([]),
    conversation: z.array(ConversationVariable).max(FLOW_LIMITS.maxVariables).default([]),
  })
  .strict();
export type FlowVariables = z.infer<typeof FlowVariables>;

// ------------------------------------------------------------------ the document

type Ctx = z.RefinementCtx;
type Path = (string | number)[];

function uniqueBy<T>(items: readonly T[], key: (t: T) => string, path: (i: number) => Path, what: string, ctx: Ctx) {
  const seen = new Set<string>();
  items.forEach((item, i) => {
    const k = key(item);
    if (seen.has(k)) ctx.addIssue({ code: 'custom', path: path(i), message: `Duplicate ${what} "${k}"` });
    seen.add(k);
  });
}

/** Structural rules every document keeps (kind-specific rules are the plugins' `validate`). */
function checkStructure(doc: { mode: FlowMode; nodes: FlowNode[]; edges: FlowEdge[]; variables: FlowVariables }, ctx: Ctx) {
  const { nodes, edges, variables } = doc;
  uniqueBy(nodes, (n) => n.id, (i) => ['nodes', i, 'id'], 'node id', ctx);
  const byId = new Map(nodes.map((n) => [n.id, n]));

  nodes.forEach((n, i) => {
    if (n.parentId === undefined) return;
    if (n.parentId === n.id) {
      ctx.addIssue({ code: 'custom', path: ['nodes', i, 'parentId'], message: `Node "${n.id}" cannot contain itself` });
    } else if (!byId.has(n.parentId)) {
      ctx.addIssue({ code: 'custom', path: ['nodes', i, 'parentId'], message: `Node "${n.id}" is inside a missing node "${n.parentId}"` });
    } else {
      // A chain of parents must end at the top level.
      const seen = new Set([n.id]);
      for (let p = byId.get(n.parentId); p; p = p.parentId ? byId.get(p.parentId) : undefined) {
        if (seen.has(p.id)) {
          ctx.addIssue({ code: 'custom', path: ['nodes', i, 'parentId'], message: `Node "${n.id}" is in a cycle of containers` });
          break;
        }
        seen.add(p.id);
      }
    }
  });

  uniqueBy(edges, (e) => e.id, (i) => ['edges', i, 'id'], 'edge id', ctx);
  uniqueBy(
    edges,
    (e) => `${e.source}/${e.sourceHandle} → ${e.target}/${e.targetHandle}`,
    (i) => ['edges', i],
    'connection',
    ctx,
  );
  edges.forEach((e, i) => {
    const s = byId.get(e.source);
    const t = byId.get(e.target);
    if (!s) ctx.addIssue({ code: 'custom', path: ['edges', i, 'source'], message: `Edge "${e.id}" starts at a missing node "${e.source}"` });
    if (!t) ctx.addIssue({ code: 'custom', path: ['edges', i, 'target'], message: `Edge "${e.id}" ends at a missing node "${e.target}"` });
    if (e.source === e.target) {
      ctx.addIssue({ code: 'custom', path: ['edges', i], message: `Edge "${e.id}" connects node "${e.source}" to itself` });
    } else if (s && t && s.parentId !== t.parentId) {
      ctx.addIssue({ code: 'custom', path: ['edges', i], message: `Edge "${e.id}" crosses a container boundary` });
    }
  });

  for (const list of ['env', 'conversation'] as const) {
    const vars: readonly { id: string; name: string }[] = variables[list];
    uniqueBy(vars, (v) => v.id, (i) => ['variables', list, i, 'id'], `${list} variable id`, ctx);
    uniqueBy(vars, (v) => v.name, (i) => ['variables', list, i, 'name'], `${list} variable name`, ctx);
  }
  if (!isChatMode(doc.mode) && variables.conversation.length) {
    ctx.addIssue({ code: 'custom', path: ['variables', 'conversation'], message: `A ${doc.mode} has no conversation variables` });
  }
}

/** The flow document (see the top of this file). Parse with it before saving or running. */
// ------------------------------------------------------------------ app features (chat apps, portal)

/** Image detail of uploaded images sent to a vision model (spec 9: low 512×512 = 65 tokens; high adds crops, 129 in all). */
export const ImageDetail = z.enum(['low', 'high']);
export type ImageDetail = z.infer<typeof ImageDetail>;

/** The longest opening statement, and how many suggested questions an app may list. */
export const FEATURE_LIMITS = { openingStatementMax: 4000, suggestedQuestionsMax: 20, suggestedQuestionMax: 200, fileCountMax: 10 } as const;

/** The error of a random-display count above the number of suggested questions (the form translates it). */
export const FEATURE_COUNT_MESSAGE = 'The number of suggested questions shown cannot exceed the number of suggested questions';

const FILE_KINDS = ['image', 'document', 'audio', 'video'] as const;

/** File and image upload of the app's chat (the builder's "file upload" feature). */
export const FileUploadFeature = z
  .object({
    enabled: z.boolean().default(false).meta({ label: 'features:fields.uploadEnabled', help: 'features:help.uploadEnabled', order: 1 }),
    /** Which kinds the user may attach. */
    types: z
      .array(z.enum(FILE_KINDS))
      .max(4)
      .default(['image'])
      .meta({ label: 'features:fields.uploadTypes', optionLabels: 'features:fileKinds', order: 2, visibleWhen: { field: 'enabled', equals: true } }),
    max_count: z
      .number()
      .int()
      .min(1)
      .max(FEATURE_LIMITS.fileCountMax)
      .default(3)
      .meta({ label: 'features:fields.uploadMaxCount', help: 'features:help.uploadMaxCount', order: 3, visibleWhen: { field: 'enabled', equals: true } }),
    image_detail: ImageDetail.default('low').meta({
      label: 'features:fields.imageDetail',
      help: 'features:help.imageDetail',
      optionLabels: 'features:imageDetail',
      order: 4,
      visibleWhen: { field: 'enabled', equals: true },
    }),
  })
  .strict();

/**
 * What an app offers its end users beyond the flow itself (the portal's and the public API's chat):
 * the opening statement and suggested questions (at most `suggested_questions_random_count` of them shown,
 * picked at random each time: spec 5 "Recommended questions shown cannot exceed the random-display count"),
 * file and image upload, follow-up suggestions after each answer, citations and feedback, voice input
 * and spoken answers (issue 31).
 * Every field has a default, so documents saved before features existed stay valid. The UI metadata
 * draws the builder's features form (src/canvas/editor/features-dialog.tsx); the random-display count
 * may not exceed the number of questions ({@link FEATURE_COUNT_MESSAGE}).
 */
export const AppFeatures = z
  .object({
    opening_statement: z
      .string()
      .max(FEATURE_LIMITS.openingStatementMax)
      .default('')
      .meta({ label: 'features:fields.openingStatement', placeholder: 'features:placeholders.openingStatement', help: 'features:help.openingStatement', widget: 'textarea', rows: 4, group: 'opening', order: 1 }),
    suggested_questions: z
      .array(z.string().trim().min(1).max(FEATURE_LIMITS.suggestedQuestionMax))
      .max(FEATURE_LIMITS.suggestedQuestionsMax)
      .default([])
      .meta({ label: 'features:fields.suggestedQuestions', help: 'features:help.suggestedQuestions', widget: 'question-list', group: 'opening', order: 2 }),
    /** How many of the suggested questions are shown (0 = all of them). */
    suggested_questions_random_count: z
      .number()
      .int()
      .min(0)
      .max(FEATURE_LIMITS.suggestedQuestionsMax)
      .default(0)
      .meta({ label: 'features:fields.randomCount', help: 'features:help.randomCount', group: 'opening', order: 3 }),
    /** After each answer, the model suggests up to three follow-up questions. */
    suggested_questions_after_answer: z
      .boolean()
      .default(false)
      .meta({ label: 'features:fields.followUp', help: 'features:help.followUp', group: 'conversation', order: 4 }),
    file_upload: FileUploadFeature.default({ enabled: false, types: ['image'], max_count: 3, image_detail: 'low' }).meta({
      label: 'features:fields.fileUpload',
      widget: 'feature-file-upload',
      group: 'conversation',
      order: 7,
    }),
    /** Show the knowledge passages an answer used. */
    citations: z.boolean().default(true).meta({ label: 'features:fields.citations', help: 'features:help.citations', group: 'conversation', order: 5 }),
    /** Let end users like or dislike answers. */
    feedback: z.boolean().default(true).meta({ label: 'features:fields.feedback', help: 'features:help.feedback', group: 'conversation', order: 6 }),
    /** Voice input in the portal: a microphone button, the recording sent as text (the tenant's speech2text model). */
    speech_to_text: z.boolean().default(false).meta({ label: 'features:fields.speechToText', help: 'features:help.speechToText', group: 'voice', order: 8 }),
    /** Spoken answers in the portal, sentence by sentence as they stream (the tenant's tts model, else the offline voice). */
    text_to_speech: z.boolean().default(false).meta({ label: 'features:fields.textToSpeech', help: 'features:help.textToSpeech', group: 'voice', order: 9 }),
  })
  .strict()
  .superRefine((f, ctx) => {
    if (f.suggested_questions_random_count > 0 && f.suggested_questions_random_count > f.suggested_questions.length) {
      ctx.addIssue({ code: 'custom', path: ['suggested_questions_random_count'], message: FEATURE_COUNT_MESSAGE });
    }
  })
  .meta({
    title: 'features:title',
    groups: [
      { id: 'opening', title: 'features:groups.opening', help: 'features:groups.openingHelp' },
      { id: 'conversation', title: 'features:groups.conversation' },
      { id: 'voice', title: 'features:groups.voice', help: 'features:groups.voiceHelp' },
    ],
  });
export type AppFeatures = z.infer<typeof AppFeatures>;
export type AppFeaturesInput = z.input<typeof AppFeatures>;
/** The features of a document that names none. */
export const defaultAppFeatures = (): AppFeatures => AppFeatures.parse({});
/**
 * A document's features, the defaults where it names none. A stored document is read as it was saved:
 * a field that no longer validates (an older rule, a hand-edited row) falls back to its default and
 * the others stay, so a published app keeps answering instead of failing every request.
 */
export function featuresOf(doc: { features?: AppFeaturesInput }): AppFeatures {
  const given = doc.features ?? {};
  const r = AppFeatures.safeParse(given);
  if (r.success) return r.data;
  if (typeof given !== 'object' || given === null || Array.isArray(given)) return defaultAppFeatures();
  const bad = new Set(r.error.issues.map((i) => i.path[0]));
  const kept = Object.fromEntries(Object.entries(given).filter(([k]) => !bad.has(k)));
  const again = AppFeatures.safeParse(kept);
  return again.success ? again.data : defaultAppFeatures();
}

/**
 * The suggested questions a new conversation shows: all of them when the random-display count is 0
 * (or not below their number), otherwise that many picked at random (in their order), never more.
 * @example shownSuggestedQuestions({ suggested_questions: ['a', 'b', 'c'], suggested_questions_random_count: 2 }) // e.g. ['a', 'c']
 */
export function shownSuggestedQuestions(
  f: Pick<AppFeatures, 'suggested_questions' | 'suggested_questions_random_count'>,
  random: () => number = Math.random,
): string[] {
  const all = f.suggested_questions;
  const n = f.suggested_questions_random_count;
  if (n <= 0 || n >= all.length) return [...all];
  // A partial Fisher–Yates shuffle of the indexes: n distinct picks, whatever `random` answers.
  const idx = all.map((_, i) => i);
  for (let i = 0; i < n; i++) {
    const j = i + Math.min(idx.length - i - 1, Math.floor(random() * (idx.length - i)));
    [idx[i], idx[j]] = [idx[j], idx[i]];
  }
  const picked = new Set(idx.slice(0, n));
  return all.filter((_, i) => picked.has(i));
}

export const FlowDocument = z
  .object({
    schemaVersion: z.literal(FLOW_SCHEMA_VERSION),
    mode: FlowMode,
    nodes: z.array(FlowNode).max(FLOW_LIMITS.maxNodes, `A flow holds at most ${FLOW_LIMITS.maxNodes} nodes`),
    edges: z.array(FlowEdge).max(FLOW_LIMITS.maxEdges, `A flow holds at most ${FLOW_LIMITS.maxEdges} edges`),
    variables: FlowVariables.default({ env: [], conversation: [] }),
    /** The builders' free-text notes about the flow (sticky notes on the canvas are `note` nodes). */
    notes: z.string().max(FLOW_LIMITS.maxNotesLength).default(''),
    /**
     * What the app offers its end users (chat apps: opening statement, suggested questions, uploads…).
     * Absent in documents that never set any: read it with {@link featuresOf}.
     */
    features: AppFeatures.optional(),
    /**
     * Which editor an agent app opens in: absent, a flow of exactly start → agent → answer opens the
     * zero-code agent builder (schemas/agent-builder.ts zeroCodeNodes); `canvas` after the builder's
     * "Turn into a canvas flow" (the canvas from then on, whatever the shape).
     */
    editor: z.literal('canvas').optional(),
  })
  .strict()
  .superRefine(checkStructure);
export type FlowDocument = z.infer<typeof FlowDocument>;
/** What may be sent: defaults (variables, notes, descriptions) may be left out. */
export type FlowDocumentInput = z.input<typeof FlowDocument>;

// ------------------------------------------------------------------ empty documents

/**
 * The node kinds a new flow starts with, per mode, connected left to right:
 * - workflow: start → end (inputs in, outputs out);
 * - chatflow: start → llm → answer (the user's message to a model, its reply out: Dify's first chatflow);
 * - agent: start → agent → answer (one agent at the heart of a chat; steps can be added around it);
 * - agent_team: start → agent → answer (the entry agent; more agents join and take hand-offs from it).
 * The node ids are the kind names (`start`, `llm`, `agent`, `answer`, `end`).
 */
export const EMPTY_FLOW_KINDS: Readonly<Record<FlowMode, readonly string[]>> = {
  workflow: ['start', 'end'],
  chatflow: ['start', 'llm', 'answer'],
  agent: ['start', 'agent', 'answer'],
  agent_team: ['start', 'agent', 'answer'],
};

/**
 * What a new flow's nodes say beyond their kind's defaults, so it runs as it is (no checklist error
 * once a model is chosen): the reply quotes the model's text, the chatflow's LLM gets the user's message.
 */
export const EMPTY_FLOW_CONFIG: Readonly<Record<FlowMode, Readonly<Record<string, NodeConfig>>>> = {
  workflow: {},
  chatflow: {
    llm: {
      prompts: [
        { role: 'system', text: '' },
        { role: 'user', text: '{{#sys.query#}}' },
      ],
    },
    answer: { answer: '{{#llm.text#}}' },
  },
  agent: { answer: { answer: '{{#agent.text#}}' } },
  agent_team: { answer: { answer: '{{#agent.text#}}' } },
};

export interface EmptyFlowOptions {
  /**
   * Version and config per kind, e.g. from the plugin registry (`registry.createFlow(mode)` does
   * this). Without it nodes get `kindVersion: 1` and `config: {}`, which the registry fills with
   * the schema's defaults (and migrates) when the editor loads the flow.
   */
  nodeDefaults?: (kind: string) => { kindVersion: number; config: NodeConfig } | undefined;
  /** Titles per kind; by default empty (the editor shows the kind's translated title). */
  titles?: Readonly<Partial<Record<string, string>>>;
  /** The model the flow's model nodes start with (the tenant's default LLM); none: not chosen yet. */
  defaultModel?: DefaultModelChoice | null;
}

/** A model by provider and name (the tenant's default LLM, as GET tenant-default names it). */
export interface DefaultModelChoice {
  provider: string;
  name: string;
}

/** The kinds of the new flows that call a model (their `config.model`). */
const EMPTY_FLOW_MODEL_KINDS: ReadonlySet<string> = new Set(['llm', 'agent']);

/**
 * A node config with `model` set to `choice` when it holds a model (`config.model`, as the llm,
 * agent, classifier and extractor kinds do) and none is chosen yet; the config itself otherwise.
 * @example withDefaultModel({ model: { provider: '', name: '' } }, { provider: 'openai', name: 'gpt-4o-mini' })
 */
export function withDefaultModel<C extends NodeConfig>(config: C, choice: DefaultModelChoice | null | undefined): C {
  const m = config.model;
  if (!choice || !m || typeof m !== 'object' || Array.isArray(m)) return config;
  const { provider, name } = m as { provider?: unknown; name?: unknown };
  if (provider || name) return config;
  return { ...config, model: { ...m, provider: choice.provider, name: choice.name } };
}

/** Horizontal distance between the nodes of a new flow. */
const EMPTY_FLOW_GAP = 360;

/**
 * A new, valid flow document for a mode (see {@link EMPTY_FLOW_KINDS}).
 * @example createEmptyFlow('workflow').nodes.map((n) => n.id) // ['start', 'end']
 */
export function createEmptyFlow(mode: FlowMode, opts: EmptyFlowOptions = {}): FlowDocument {
  const kinds = EMPTY_FLOW_KINDS[mode];
  const nodes: FlowNode[] = kinds.map((kind, i) => {
    const d = opts.nodeDefaults?.(kind);
    const wiring = EMPTY_FLOW_CONFIG[mode][kind];
    let config: NodeConfig = wiring ? { ...d?.config, ...structuredClone(wiring) } : (d?.config ?? {});
    // Without the kind's defaults the model is only the choice (the schema fills the rest on parse).
    if (opts.defaultModel && EMPTY_FLOW_MODEL_KINDS.has(kind)) config = withDefaultModel({ model: {}, ...config }, opts.defaultModel);
    return {
      id: kind,
      kind,
      kindVersion: d?.kindVersion ?? 1,
      title: opts.titles?.[kind] ?? '',
      position: { x: 80 + i * EMPTY_FLOW_GAP, y: 240 },
      config,
    };
  });
  const edges = kinds.slice(1).map((kind, i) => createEdge(kinds[i], kind));
  return { schemaVersion: FLOW_SCHEMA_VERSION, mode, nodes, edges, variables: { env: [], conversation: [] }, notes: '' };
}
