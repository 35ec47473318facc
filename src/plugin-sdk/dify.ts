import { isSelector, mapTextReferences, systemVariables, type FlowMode, type NodeConfig } from '../../schemas/flow';

/**
 * Importing Dify flow files, the plugin side: a kind reads the Dify nodes it takes (its `dify`
 * hook) with these helpers, which read Dify's loosely typed data safely and rewrite its references
 * to ours. The hook returns plain config; the kind's schema has the last word (the importer drops
 * fields the schema refuses, with a warning each).
 */

/** What a kind's Dify hook gets besides the node's `data`. */
export interface DifyImportContext {
  mode: FlowMode;
  /** Dify node id → our node id (the same unless Dify's id is not allowed here). */
  ids: ReadonlyMap<string, string>;
  /** Ids of Dify start nodes (old files select system variables as `[startId, 'sys.query']`). */
  startIds: ReadonlySet<string>;
  /** The Dify node type being mapped (`data.type`; one of the hook's `types`). */
  type: string;
  /** The node being mapped (title for messages). */
  node: string;
  /** Reports what could not be kept: a key of the importer's warnings (`dsl:warnings.<key>`), with params. */
  warn(key: string, params?: Record<string, string | number>): void;
}

/**
 * A kind's Dify import hook (`defineNodePlugin({ dify })`): the Dify node types it takes, and
 * Dify's `data` → its config. `import` may decline a node (undefined) that another kind taking the
 * same Dify type maps; kinds are asked in the registry's order.
 * @example
 * dify: { types: ['answer'], import: (data, ctx) => ({ answer: text(data.answer, ctx) }) }
 */
export interface DifyImportHook {
  readonly types: readonly string[];
  import(data: Record<string, unknown>, ctx: DifyImportContext): NodeConfig | undefined;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export const str = (v: unknown, fallback = ''): string => (typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : fallback);
export const num = (v: unknown): number | undefined => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() ? Number(v) : NaN;
  return Number.isFinite(n) ? n : undefined;
};
export const clamp = (v: unknown, min: number, max: number, fallback: number, int = true): number => {
  const n = num(v);
  if (n === undefined) return fallback;
  const c = Math.min(max, Math.max(min, n));
  return int ? Math.round(c) : c;
};
export const bool = (v: unknown, fallback = false): boolean => (typeof v === 'boolean' ? v : v === 'true' ? true : v === 'false' ? false : fallback);
export const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const rec = (v: unknown): Record<string, unknown> => (isRecord(v) ? v : {});
export const oneOf = <T extends string>(v: unknown, options: readonly T[], fallback: T): T => (options.includes(v as T) ? (v as T) : fallback);
/** `langgenius/openai/openai` (a marketplace plugin id) → `openai`. */
export const providerName = (v: unknown) => str(v).split('/').filter(Boolean).pop() ?? '';

/** Rewrites one Dify selector into ours: system variables under `sys`, node ids mapped. */
function rewrite(parts: string[], ctx: DifyImportContext): string[] {
  let s = parts.flatMap((p, i) => (i === 0 ? [p] : p.split('.')));
  // Old files: [startId, 'sys.query'] (and in text {{#startId.sys.query#}}).
  if (s.length >= 3 && s[1] === 'sys' && ctx.startIds.has(s[0])) s = s.slice(1);
  if (s[0] === 'sys' && s[1] && !systemVariables(ctx.mode).some((v) => v.name === s[1])) ctx.warn('sysVariableUnknown', { node: ctx.node, name: s[1] });
  const mapped = ctx.ids.get(s[0]);
  return mapped ? [mapped, ...s.slice(1)] : s;
}

/** A Dify `value_selector` as our selector; `[]` when absent or not a selector. */
export function sel(v: unknown, ctx: DifyImportContext): string[] {
  if (!Array.isArray(v) || !v.length || !v.every((p) => typeof p === 'string')) return [];
  const s = rewrite(v as string[], ctx);
  return isSelector(s) ? s : [];
}

/** A Dify text with `{{#node.path#}}` references, rewritten like selectors. */
export function text(v: unknown, ctx: DifyImportContext): string {
  return mapTextReferences(str(v), (r) => {
    const s = rewrite(r.selector, ctx);
    return s.join('.') === r.selector.join('.') ? undefined : s;
  });
}
