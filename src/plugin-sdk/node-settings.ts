import type { NodeConfig } from '../../schemas/flow';

/**
 * How the engine treats a node's failures and time, read from the node's config. Any kind may carry
 * these fields; the engine reads them, the executor never sees them. Two spellings are understood
 * (the nested one below, and the flat one `plugins/shared/run-settings.ts` spreads into manifests);
 * when both are present the nested one wins.
 *
 * Nested:
 * ```
 * errorStrategy: { type: 'none' | 'fail-branch' | 'default-value', defaults?: { [output]: value } }
 * retry: { enabled: boolean, maxRetries: number, intervalMs: number, backoff?: 'fixed' | 'exponential' }
 * timeoutMs: number            // 0 or absent: no limit
 * ```
 * Flat:
 * ```
 * errorStrategy: 'none' | 'fail-branch' | 'default-value'
 * defaultValues: [{ name, value }]
 * retryEnabled, maxRetries, retryIntervalMs
 * timeoutSeconds
 * ```
 *
 * - `none`: the failure fails the run (inside an iteration: the round, see its error mode).
 * - `fail-branch`: the node finishes with status `exception`, outputs `{ error_message, error_code }`
 *   and takes the `fail-branch` handle (its `source` edges are skipped).
 * - `default-value`: the node finishes with status `exception`, outputs the defaults plus
 *   `error_message` and `error_code`, and goes on along `source`.
 * Retries happen before the strategy applies: the n-th retry waits `intervalMs` (fixed) or
 * `intervalMs * 2^(n-1)` (exponential, the default). The timeout applies to each try.
 */
export interface NodeSettings {
  errorStrategy: 'none' | 'fail-branch' | 'default-value';
  defaults: Record<string, unknown>;
  retry: { maxRetries: number; intervalMs: number; backoff: 'fixed' | 'exponential' };
  /** 0: no limit. */
  timeoutMs: number;
}

const STRATEGIES = new Set(['none', 'fail-branch', 'default-value']);
const num = (v: unknown, fallback: number) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : fallback);
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function defaultsFrom(v: unknown): Record<string, unknown> {
  if (Array.isArray(v)) {
    const out: Record<string, unknown> = {};
    for (const d of v) if (isRecord(d) && typeof d.name === 'string' && d.name) out[d.name] = d.value;
    return out;
  }
  return isRecord(v) ? { ...v } : {};
}

/** Settings of a node that has none of the fields. */
export const NO_NODE_SETTINGS: Readonly<NodeSettings> = Object.freeze<NodeSettings>({
  errorStrategy: 'none',
  defaults: {},
  retry: { maxRetries: 0, intervalMs: 0, backoff: 'exponential' },
  timeoutMs: 0,
});

/**
 * The settings in a config (lenient: malformed fields count as absent).
 * @example readNodeSettings({ retry: { enabled: true, maxRetries: 2, intervalMs: 500 }, timeoutMs: 30000 })
 */
export function readNodeSettings(config: NodeConfig): NodeSettings {
  const es = config.errorStrategy;
  const nested = isRecord(es) ? es : undefined;
  const type = nested ? nested.type : es;
  const errorStrategy = typeof type === 'string' && STRATEGIES.has(type) ? (type as NodeSettings['errorStrategy']) : 'none';
  const defaults = nested && 'defaults' in nested ? defaultsFrom(nested.defaults) : defaultsFrom(config.defaultValues);

  const r = isRecord(config.retry) ? config.retry : undefined;
  const enabled = r ? r.enabled === true : config.retryEnabled === true;
  const retry = enabled
    ? {
        maxRetries: Math.floor(num(r ? r.maxRetries : config.maxRetries, 0)),
        intervalMs: num(r ? r.intervalMs : config.retryIntervalMs, 0),
        backoff: (r?.backoff === 'fixed' ? 'fixed' : 'exponential') as 'fixed' | 'exponential',
      }
    : NO_NODE_SETTINGS.retry;

  const timeoutMs = 'timeoutMs' in config ? num(config.timeoutMs, 0) : num(config.timeoutSeconds, 0) * 1000;
  if (errorStrategy === 'none' && !enabled && !timeoutMs) return NO_NODE_SETTINGS;
  return { errorStrategy, defaults, retry, timeoutMs };
}

/** Milliseconds to wait before retry number `n` (1-based). */
export const retryDelay = (s: NodeSettings['retry'], n: number) =>
  s.backoff === 'fixed' ? s.intervalMs : Math.min(s.intervalMs * 2 ** (n - 1), 10 * 60_000);
