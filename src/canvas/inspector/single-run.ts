import type { FlowNode, NodeRegistry, ValueType } from '../../plugin-sdk';

/**
 * The inspector's "run this node" (issue 5), without React: which kinds can run alone, the values
 * the form asks for, how a typed text becomes a value, and a session memory of each node's last
 * inputs and result (kept while the page lives, across re-selection of the node).
 */

/** Categories whose kinds do not run alone: start/end/answer, containers (need their body), notes. */
const NOT_ALONE = new Set(['basic', 'container', 'annotation']);

/** Whether the kind runs alone (the server runs any kind with an executor that is not a container). */
export function runsAlone(registry: NodeRegistry, kind: string): boolean {
  const plugin = registry.get(kind);
  return !!plugin && !plugin.container && !NOT_ALONE.has(plugin.category);
}

/** One value the node reads: a reference of its config, keyed as the server takes it (`nodeId.path`). */
export interface SingleRunInput {
  key: string;
  selector: string[];
  type?: ValueType;
}

/**
 * The variables the node references, once each, in config order. Environment variables are left
 * out: the server gives the draft's own (secrets included).
 */
export function singleRunInputs(registry: NodeRegistry, node: FlowNode, typeOf: (selector: readonly string[]) => ValueType | undefined): SingleRunInput[] {
  const seen = new Set<string>();
  const out: SingleRunInput[] = [];
  for (const r of registry.referencesOf(node)) {
    if (r.selector.length < 2 || r.selector[0] === 'env') continue;
    const key = r.selector.join('.');
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ key, selector: [...r.selector], type: typeOf(r.selector) });
  }
  return out;
}

/** How a field of the type is typed in: plain text, a number, true/false, or JSON. */
export type InputKind = 'text' | 'number' | 'boolean' | 'json';

export function inputKind(type: ValueType | undefined): InputKind {
  if (!type || type === 'string') return 'text';
  if (type === 'number') return 'number';
  if (type === 'boolean') return 'boolean';
  return 'json';
}

/** A JSON example per type, for the field's placeholder. */
export function jsonExample(type: ValueType | undefined): string {
  if (type?.startsWith('array')) return type === 'array[string]' ? '["a", "b"]' : type === 'array[number]' ? '[1, 2]' : '[{"a": 1}]';
  if (type === 'file') return '{"url": "https://…", "filename": "a.pdf"}';
  return '{"a": 1}';
}

export type ParsedInputs = { ok: true; inputs: Record<string, unknown> } | { ok: false; errors: Record<string, 'invalidJson' | 'invalidNumber' | 'invalidBoolean'> };

/** The form's texts as the request's inputs; an empty text leaves its key out (the node reads no value). */
export function parseInputs(fields: readonly SingleRunInput[], texts: Readonly<Record<string, string>>): ParsedInputs {
  const inputs: Record<string, unknown> = {};
  const errors: Record<string, 'invalidJson' | 'invalidNumber' | 'invalidBoolean'> = {};
  for (const f of fields) {
    const text = texts[f.key] ?? '';
    if (text.trim() === '') continue;
    const kind = inputKind(f.type);
    if (kind === 'text') inputs[f.key] = text;
    else if (kind === 'number') {
      const n = Number(text.trim());
      if (Number.isFinite(n)) inputs[f.key] = n;
      else errors[f.key] = 'invalidNumber';
    } else if (kind === 'boolean') {
      const v = text.trim().toLowerCase();
      if (v === 'true' || v === 'false') inputs[f.key] = v === 'true';
      else errors[f.key] = 'invalidBoolean';
    } else {
      try {
        inputs[f.key] = JSON.parse(text);
      } catch {
        errors[f.key] = 'invalidJson';
      }
    }
  }
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, inputs };
}

// ------------------------------------------------------------------ session memory

/** What a single-node run answered (schemas/run-api.ts NodeRunResult). */
export interface SingleRunResult {
  runId: string;
  status: 'succeeded' | 'failed' | 'stopped';
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
  error?: { code: string; message: string };
  elapsedMs: number;
  usage: { promptTokens: number; completionTokens: number; totalTokens: number };
}

export type SingleRunState =
  | { status: 'idle' }
  | { status: 'running'; startedAt: number }
  | { status: 'done'; result: SingleRunResult }
  /** The request itself failed (the node did not run): the API's code and message. */
  | { status: 'error'; code: string; message: string };

export interface SingleRunEntry {
  /** The form's texts by input key. */
  texts: Record<string, string>;
  state: SingleRunState;
}

const IDLE: SingleRunEntry = Object.freeze({ texts: {}, state: { status: 'idle' } }) as SingleRunEntry;

/**
 * The last inputs and result of each node, for the page's life (not saved: a flow document holds
 * no run state). Keyed by the app (`scope`) and node id. Subscribable for `useSyncExternalStore`.
 */
export function createSingleRunMemory() {
  const entries = new Map<string, SingleRunEntry>();
  const listeners = new Set<() => void>();
  const id = (scope: string, nodeId: string) => `${scope}\u0000${nodeId}`;
  return {
    get: (scope: string, nodeId: string): SingleRunEntry => entries.get(id(scope, nodeId)) ?? IDLE,
    update(scope: string, nodeId: string, patch: Partial<SingleRunEntry>) {
      const k = id(scope, nodeId);
      entries.set(k, { ...(entries.get(k) ?? IDLE), ...patch });
      listeners.forEach((l) => l());
    },
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}
export type SingleRunMemory = ReturnType<typeof createSingleRunMemory>;

/** The page-wide memory the inspector uses unless given another (tests). */
export const singleRunMemory: SingleRunMemory = createSingleRunMemory();
