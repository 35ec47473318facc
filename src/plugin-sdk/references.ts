import type { z } from 'zod';
import {
  flowFields,
  formatTextReference,
  isSelector,
  lookupId,
  mapTextReferences,
  parseTextReferences,
  replaceReferences,
  selectorNamespace,
  type IdMap,
  type TextReference,
} from '../../schemas/flow';

/**
 * References inside a node's config: selectors (`['llm1', 'text']`) in fields typed `Selector` /
 * `MaybeSelector`, and `{{#nodeId.path#}}` inside any string. Found by walking the config together
 * with the plugin's zod schema, so a list of tags that happens to look like a selector is not
 * mistaken for one. Used for pasting (new ids), for the broken-reference checks and for showing
 * what breaks when a node is renamed or deleted.
 */

export {
  formatTextReference,
  isSelector,
  mapTextReferences,
  parseTextReferences,
  replaceReferences,
  selectorNamespace,
  type IdMap,
  type TextReference,
};

/** One reference found in a config. */
export interface ConfigReference {
  /** What is referenced: `[nodeId | 'sys' | 'env' | 'conversation', ...path]`. */
  selector: string[];
  /** Where in the config (`['cases', 0, 'conditions', 1, 'variable_selector']`). */
  path: (string | number)[];
  /** A selector field, or a `{{#…#}}` inside a text (then `text` has its offsets). */
  source: 'selector' | 'text';
  text?: TextReference;
}

/** Rewrites one reference: the new selector, or undefined to keep it. */
export type ReferenceMapper = (selector: readonly string[], where: { path: (string | number)[]; source: 'selector' | 'text' }) =>
  | readonly string[]
  | undefined;

/** The parts of zod's internal definition the walker reads (zod 4 `schema._zod.def`). */
interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  element?: z.ZodType;
  items?: z.ZodType[];
  rest?: z.ZodType | null;
  options?: z.ZodType[];
  valueType?: z.ZodType;
  innerType?: z.ZodType;
  in?: z.ZodType;
  left?: z.ZodType;
  right?: z.ZodType;
  getter?: () => z.ZodType;
}

const defOf = (s: z.ZodType) => (s as unknown as { _zod: { def: Def } })._zod.def;
const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'catch', 'readonly', 'nonoptional']);

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A schema walker: at each (schema, value) pair, either stop or go on into children. */
type Visit = (value: unknown, path: (string | number)[], kind: 'selector' | 'string' | 'other') => unknown;

/**
 * Walks `value` with `schema`; `visit` is called for selector fields and strings and returns the
 * value to put in their place. Untouched subtrees are returned as they are (copy on change).
 * Without a schema (or under `unknown`), strings are still visited, and arrays that look like a
 * selector whose head passes `looseHead`.
 */
function walk(schema: z.ZodType | undefined, value: unknown, path: (string | number)[], visit: Visit, looseHead: (head: string) => boolean): unknown {
  if (value === undefined || value === null) return value;
  if (!schema) return walkLoose(value, path, visit, looseHead);
  if (flowFields.get(schema)?.role === 'selector') return isSelector(value) ? visit(value, path, 'selector') : value;
  const def = defOf(schema);
  if (WRAPPERS.has(def.type) && def.innerType) return walk(def.innerType, value, path, visit, looseHead);
  switch (def.type) {
    case 'pipe':
      return walk(def.in, value, path, visit, looseHead);
    case 'lazy':
      return walk(def.getter?.(), value, path, visit, looseHead);
    case 'string':
      return typeof value === 'string' ? visit(value, path, 'string') : value;
    case 'object': {
      if (!isRecord(value)) return value;
      let out: Record<string, unknown> | undefined;
      for (const [k, v] of Object.entries(value)) {
        const child = def.shape?.[k] ?? def.catchall;
        const next = walk(child, v, [...path, k], visit, looseHead);
        if (next !== v) (out ??= { ...value })[k] = next;
      }
      return out ?? value;
    }
    case 'record': {
      if (!isRecord(value)) return value;
      let out: Record<string, unknown> | undefined;
      for (const [k, v] of Object.entries(value)) {
        const next = walk(def.valueType, v, [...path, k], visit, looseHead);
        if (next !== v) (out ??= { ...value })[k] = next;
      }
      return out ?? value;
    }
    case 'array':
    case 'tuple': {
      if (!Array.isArray(value)) return value;
      let out: unknown[] | undefined;
      value.forEach((v, i) => {
        const child = def.type === 'array' ? def.element : (def.items?.[i] ?? def.rest ?? undefined);
        const next = walk(child, v, [...path, i], visit, looseHead);
        if (next !== v) (out ??= [...value])[i] = next;
      });
      return out ?? value;
    }
    case 'union': {
      const option = def.options?.find((o) => o.safeParse(value).success);
      return option ? walk(option, value, path, visit, looseHead) : walkLoose(value, path, visit, looseHead);
    }
    case 'intersection':
      return walk(def.right, walk(def.left, value, path, visit, looseHead), path, visit, looseHead);
    case 'unknown':
    case 'any':
    case 'custom':
      return walkLoose(value, path, visit, looseHead);
    default:
      // Numbers, booleans, enums, literals …: nothing to find.
      return value;
  }
}

function walkLoose(value: unknown, path: (string | number)[], visit: Visit, looseHead: (head: string) => boolean): unknown {
  if (typeof value === 'string') return visit(value, path, 'string');
  if (Array.isArray(value)) {
    if (isSelector(value) && looseHead(value[0])) return visit(value, path, 'selector');
    let out: unknown[] | undefined;
    value.forEach((v, i) => {
      const next = walkLoose(v, [...path, i], visit, looseHead);
      if (next !== v) (out ??= [...value])[i] = next;
    });
    return out ?? value;
  }
  if (isRecord(value)) {
    let out: Record<string, unknown> | undefined;
    for (const [k, v] of Object.entries(value)) {
      const next = walkLoose(v, [...path, k], visit, looseHead);
      if (next !== v) (out ??= { ...value })[k] = next;
    }
    return out ?? value;
  }
  return value;
}

export interface ReferenceOptions {
  /**
   * For parts of the config the schema does not describe (`z.unknown()`, or no schema at all for
   * an unknown kind): which selector-looking arrays count, by their first element. Default: only
   * `sys`, `env` and `conversation` (a bare `['a', 'b']` is more likely data than a selector).
   */
  looseHead?: (head: string) => boolean;
}

const namespaceHead = (head: string) => selectorNamespace([head]) !== 'node';

/**
 * Every reference in a config, in document order.
 * @example
 * const schema = z.object({ query: Selector, prompt: Template });
 * collectReferences(schema, { query: ['start', 'q'], prompt: 'Hi {{#sys.query#}}' });
 * // → [{ selector: ['start','q'], path: ['query'], source: 'selector' },
 * //    { selector: ['sys','query'], path: ['prompt'], source: 'text', text: {…} }]
 */
export function collectReferences(schema: z.ZodType | undefined, config: unknown, opts: ReferenceOptions = {}): ConfigReference[] {
  const found: ConfigReference[] = [];
  walk(
    schema,
    config,
    [],
    (value, path, kind) => {
      if (kind === 'selector') found.push({ selector: [...(value as string[])], path, source: 'selector' });
      else if (kind === 'string') {
        for (const text of parseTextReferences(value as string)) found.push({ selector: text.selector, path, source: 'text', text });
      }
      return value;
    },
    opts.looseHead ?? namespaceHead,
  );
  return found;
}

/**
 * A copy of the config with references rewritten by `map` (unchanged parts are shared).
 * @example mapReferences(schema, config, (sel) => (sel[0] === 'old' ? ['new', ...sel.slice(1)] : undefined))
 */
export function mapReferences<T>(schema: z.ZodType | undefined, config: T, map: ReferenceMapper, opts: ReferenceOptions = {}): T {
  return walk(
    schema,
    config,
    [],
    (value, path, kind) => {
      if (kind === 'selector') return map(value as string[], { path, source: 'selector' }) ?? value;
      if (kind === 'string') return mapTextReferences(value as string, (r) => map(r.selector, { path, source: 'text' }));
      return value;
    },
    opts.looseHead ?? namespaceHead,
  ) as T;
}

/**
 * A copy of the config with node ids replaced (paste with new ids). Namespaced references
 * (`sys`, `env`, `conversation`) and ids not in the map stay.
 * @example remapNodeIds(schema, { query: ['a', 'text'] }, { a: 'b' }) // { query: ['b', 'text'] }
 */
export function remapNodeIds<T>(schema: z.ZodType | undefined, config: T, idMap: IdMap): T {
  return mapReferences(
    schema,
    config,
    (sel) => {
      const to = selectorNamespace(sel) === 'node' ? lookupId(idMap, sel[0]) : undefined;
      return to === undefined ? undefined : [to, ...sel.slice(1)];
    },
    // Under z.unknown() the ids being replaced are known, so their selectors can be recognised.
    { looseHead: (head) => lookupId(idMap, head) !== undefined },
  );
}
