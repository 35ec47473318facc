import type { NodeConfig } from '../../src/plugin-sdk';
import { bool, clamp, list, num, oneOf, providerName, rec, sel, str, text, type DifyImportContext } from '../../src/plugin-sdk/dify';

/**
 * Dify's shared config parts → the built-in kinds' shared fields (./model.ts, ./run-settings.ts,
 * ./conditions.ts, ./variables.ts), for the kinds' Dify hooks (plugins/<kind>/dify.ts).
 */

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

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
export function vision(v: unknown, ctx: DifyImportContext): NodeConfig {
  const o = rec(v);
  if (!bool(o.enabled)) return { visionEnabled: false };
  const c = rec(o.configs);
  let files = sel(c.variable_selector, ctx);
  // Dify's default selector is the user's files; older exports leave it out.
  if (!files.length) {
    files = ['sys', 'files'];
    ctx.warn('visionFilesAssumed', { node: ctx.node });
  }
  return { visionEnabled: true, visionFiles: files, visionDetail: oneOf(c.detail, ['high', 'low'] as const, 'high') };
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


/** The file properties Dify's sub-conditions test that ours can (Dify also has related_id, an internal id). */
const FILE_KEYS = new Set(['name', 'type', 'extension', 'mime_type', 'size', 'transfer_method', 'url']);

/** A Dify value (text, or a list such as `[image]` for "in") → our text (a list as comma-separated items). */
const valueText = (v: unknown) => (Array.isArray(v) ? v.map((x) => str(x)).join(',') : str(v));

/**
 * A Dify condition (if-else case, loop break) → ours. Dify's file sub-conditions ("files contain one
 * whose type is in image") become our file tests; Dify runs "not contains" and "all of" with
 * sub-conditions exactly as "contains", so they import as "contains" (with a warning) to run the same.
 */
export function condition(v: unknown, ctx: DifyImportContext): NodeConfig {
  const c = rec(v);
  const sub = rec(c.sub_variable_condition);
  const subs = list(sub.conditions).map(rec);
  const out: NodeConfig = { id: str(c.id).slice(0, 64), selector: sel(c.variable_selector, ctx), operator: oneOf(c.comparison_operator, OPERATORS, 'is'), value: text(valueText(c.value), ctx) };
  if (!subs.length) return out;
  const kept = subs.filter((x) => FILE_KEYS.has(str(x.key)));
  const dropped = subs.filter((x) => !FILE_KEYS.has(str(x.key)));
  const variable = list(c.variable_selector).map((x) => str(x)).join('.');
  if (dropped.length) ctx.warn('fileConditionDropped', { node: ctx.node, variable, removed: dropped.map((x) => `${str(x.key)} ${str(x.comparison_operator)} ${valueText(x.value)}`.trim()).join(', ') });
  if (!kept.length) return out;
  const operator = str(c.comparison_operator);
  if (operator !== 'contains') ctx.warn('fileConditionOperator', { node: ctx.node, variable, operator });
  return {
    ...out,
    operator: 'contains',
    value: '',
    fileConditions: {
      logicalOperator: oneOf(sub.logical_operator, ['and', 'or'] as const, 'and'),
      conditions: kept.map((x) => ({ id: str(x.id).slice(0, 64), key: str(x.key), operator: oneOf(x.comparison_operator, OPERATORS, 'is'), value: text(valueText(x.value), ctx) })),
    },
  };
}

/** `[{ variable, value_selector }]` → our `[{ name, selector }]` rows. */
export const namedSelectors = (v: unknown, ctx: DifyImportContext) =>
  list(v).map((x) => ({ name: str(rec(x).variable).slice(0, 64), selector: sel(rec(x).value_selector, ctx) }));
