import type { z } from 'zod';
import { isSelector, mapTextReferences, systemVariables, type FlowMode, type NodeConfig } from '../../../schemas/flow';
import type { DslWarningKey } from './messages';
import { isRecord } from './yaml-file';

/**
 * What every Dify node mapper needs: reading Dify's loosely typed data safely, rewriting its
 * references to ours, and reporting what could not be kept. Field names on the right-hand side
 * are our plugins' config fields (plugins/<kind>/manifest.ts); the core imports no plugin, so the
 * mappers only produce plain objects and the registry's schema has the last word (`fitConfig`).
 */

export interface DifyContext {
  mode: FlowMode;
  /** Dify node id → our node id (the same unless Dify's id is not allowed here). */
  ids: ReadonlyMap<string, string>;
  /** Ids of Dify start nodes (old files select system variables as `[startId, 'sys.query']`). */
  startIds: ReadonlySet<string>;
  /** The node being mapped (title for messages). */
  node: string;
  warn(key: DslWarningKey, params?: Record<string, string | number>): void;
}

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
function rewrite(parts: string[], ctx: DifyContext): string[] {
  let s = parts.flatMap((p, i) => (i === 0 ? [p] : p.split('.')));
  // Old files: [startId, 'sys.query'] (and in text {{#startId.sys.query#}}).
  if (s.length >= 3 && s[1] === 'sys' && ctx.startIds.has(s[0])) s = s.slice(1);
  if (s[0] === 'sys' && s[1] && !systemVariables(ctx.mode).some((v) => v.name === s[1])) ctx.warn('sysVariableUnknown', { node: ctx.node, name: s[1] });
  const mapped = ctx.ids.get(s[0]);
  return mapped ? [mapped, ...s.slice(1)] : s;
}

/** A Dify `value_selector` as our selector; `[]` when absent or not a selector. */
export function sel(v: unknown, ctx: DifyContext): string[] {
  if (!Array.isArray(v) || !v.length || !v.every((p) => typeof p === 'string')) return [];
  const s = rewrite(v as string[], ctx);
  return isSelector(s) ? s : [];
}

/** A Dify text with `{{#node.path#}}` references, rewritten like selectors. */
export function text(v: unknown, ctx: DifyContext): string {
  return mapTextReferences(str(v), (r) => {
    const s = rewrite(r.selector, ctx);
    return s.join('.') === r.selector.join('.') ? undefined : s;
  });
}

// ------------------------------------------------------------------ shared config parts

const round = (v: number) => Math.round(v * 1000) / 1000;

/** Dify's `model` → our ModelRef (parameters clamped to the ranges our schema allows). */
export function model(v: unknown): NodeConfig {
  const m = rec(v);
  const p = rec(m.completion_params);
  const params: NodeConfig = { stop: list(p.stop).filter((s): s is string => typeof s === 'string' && s.length > 0 && s.length <= 100).slice(0, 4) };
  const ranges: [string, number, number, boolean][] = [
    ['temperature', 0, 2, false],
    ['top_p', 0, 1, false],
    ['presence_penalty', -2, 2, false],
    ['frequency_penalty', -2, 2, false],
    ['max_tokens', 1, 1_000_000, true],
  ];
  for (const [key, min, max, int] of ranges) if (num(p[key]) !== undefined) params[key] = round(clamp(p[key], min, max, min, int));
  params.response_format = oneOf(p.response_format, ['text', 'json_object', 'json_schema'] as const, 'text');
  return { provider: providerName(m.provider).slice(0, 100), name: str(m.name).slice(0, 200), mode: oneOf(m.mode, ['chat', 'completion'] as const, 'chat'), params };
}

/** Dify's `memory` → our memory fields. */
export function memory(v: unknown): NodeConfig {
  if (!isRecord(v)) return { memoryEnabled: false };
  const w = rec(v.window);
  return { memoryEnabled: true, memoryWindowEnabled: bool(w.enabled, false), memoryWindow: clamp(w.size, 1, 100, 10) };
}

/** Dify's `vision` → our vision fields. */
export function vision(v: unknown, ctx: DifyContext): NodeConfig {
  const o = rec(v);
  if (!bool(o.enabled)) return { visionEnabled: false };
  const c = rec(o.configs);
  return { visionEnabled: true, visionFiles: sel(c.variable_selector, ctx), visionDetail: oneOf(c.detail, ['high', 'low'] as const, 'high') };
}

/** Dify's error strategy, default values and retry → our run settings. */
export function runSettings(data: Record<string, unknown>): NodeConfig {
  const retry = rec(data.retry_config);
  const defaults = list(data.default_value).map((d) => {
    const o = rec(d);
    const type = str(o.type);
    const value = type === 'number' ? (num(o.value) ?? o.value) : type === 'object' && typeof o.value === 'string' ? parseJson(o.value) : o.value;
    return { name: str(o.key).slice(0, 64), value };
  });
  return {
    errorStrategy: oneOf(data.error_strategy, ['none', 'fail-branch', 'default-value'] as const, 'none'),
    defaultValues: defaults,
    retryEnabled: bool(retry.enabled),
    maxRetries: clamp(retry.max_retries, 1, 10, 3),
    retryIntervalMs: clamp(retry.retry_interval, 100, 5000, 1000),
  };
}

function parseJson(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return s;
  }
}

const OPERATORS = ['contains', 'not contains', 'start with', 'end with', 'is', 'is not', 'empty', 'not empty', '=', '≠', '>', '<', '≥', '≤', 'in', 'not in', 'all of', 'null', 'not null', 'exists', 'not exists'] as const;

/** A Dify condition (if-else case, loop break) → ours; file sub-conditions cannot be kept. */
export function condition(v: unknown, ctx: DifyContext): NodeConfig {
  const c = rec(v);
  if (list(rec(c.sub_variable_condition).conditions).length) ctx.warn('fileConditionDropped', { node: ctx.node });
  const value = Array.isArray(c.value) ? c.value.map((x) => str(x)).join(',') : str(c.value);
  return { id: str(c.id).slice(0, 64), selector: sel(c.variable_selector, ctx), operator: oneOf(c.comparison_operator, OPERATORS, 'is'), value: text(value, ctx) };
}

/** `[{ variable, value_selector }]` → our `[{ name, selector }]` rows. */
export const namedSelectors = (v: unknown, ctx: DifyContext) =>
  list(v).map((x) => ({ name: str(rec(x).variable).slice(0, 64), selector: sel(rec(x).value_selector, ctx) }));

/**
 * Parses the mapped config with the plugin's schema. Fields the schema refuses are dropped (one
 * warning each) so the node keeps what did fit and gets defaults for the rest.
 */
export function fitConfig(schema: z.ZodType, config: NodeConfig, ctx: DifyContext): NodeConfig {
  let current = { ...config };
  for (let attempt = 0; attempt < 50; attempt++) {
    const r = schema.safeParse(current);
    if (r.success) return r.data as NodeConfig;
    const bad = new Set(r.error.issues.map((i) => String(i.path[0] ?? '')));
    if (bad.has('') || ![...bad].some((k) => k in current)) break;
    for (const k of bad) {
      if (!(k in current)) continue;
      ctx.warn('fieldDropped', { node: ctx.node, field: k });
      delete current[k];
    }
  }
  current = {};
  return schema.parse(current) as NodeConfig;
}
