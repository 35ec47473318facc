import { randomUUID } from 'node:crypto';
import type { BusChannel, RunBus } from './runs/bus';

/**
 * Notices that cached rows changed, between the server processes of one database (issue 34).
 *
 * Each cache of tenant-configurable data keeps what it read for a moment and registers, with
 * {@link onCacheChange}, what to forget when its kind of data changes. A write calls
 * {@link cacheChanged}: this process forgets at once, and on a PostgreSQL server a NOTIFY on the
 * kind's channel (payload: the key, e.g. a tenant id) makes every other process forget within a
 * round trip, over the run bus's one LISTEN connection. The caches keep their short expiry as the
 * fallback for a notice missed while that connection was being opened again.
 */
export const CACHE_CHANNELS = {
  /** Verified public-API keys (security/api-keys.ts): a revoke. */
  api_keys: 'weft_cache_api_keys',
  /** Verified callers (auth.ts): role, status, password, tenant status, sessions. */
  callers: 'weft_cache_callers',
  /** Resolved models of a tenant (services/models.ts): providers, credentials, model switches; key: tenant id. */
  models: 'weft_cache_models',
  /** App rows, drafts, distributions and memberships (services/cache-generations.ts). */
  apps: 'weft_cache_apps',
  /** The super admin's outbound network lists (security/network-settings.ts). */
  network_policy: 'weft_cache_network_policy',
} as const satisfies Record<string, BusChannel>;
export type CacheKind = keyof typeof CACHE_CHANNELS;

type Forget = (key: string) => void;
const forgets = new Map<CacheKind, Set<Forget>>();
const announcers = new Set<(kind: CacheKind, key: string) => void>();

/** Registers what this process forgets when data of `kind` changed (here or in another process). */
export function onCacheChange(kind: CacheKind, forget: Forget): () => void {
  let set = forgets.get(kind);
  if (!set) forgets.set(kind, (set = new Set()));
  set.add(forget);
  return () => set.delete(forget);
}

function forgetHere(kind: CacheKind, key: string): void {
  for (const f of forgets.get(kind) ?? []) f(key);
}

/** Data of `kind` (under `key`, '' for any) changed: forgotten here at once, and in the other processes. */
export function cacheChanged(kind: CacheKind, key = ''): void {
  forgetHere(kind, key);
  for (const announce of announcers) announce(kind, key);
}

/**
 * Joins this process to the notices of the bus's other processes (a no-op on the embedded database,
 * which one process owns). Answers the function that leaves.
 */
export function shareCacheNotices(bus: RunBus, log: (e: unknown) => void): () => void {
  if (!bus.shared) return () => {};
  // A process hears its own NOTIFYs too: it already forgot, so they are recognised and skipped.
  const origin = randomUUID();
  const announce = (kind: CacheKind, key: string) => void bus.publish(CACHE_CHANNELS[kind], `${origin} ${key}`).catch(log);
  announcers.add(announce);
  const offs = (Object.keys(CACHE_CHANNELS) as CacheKind[]).map((kind) =>
    bus.subscribe(CACHE_CHANNELS[kind], (payload) => {
      const at = payload.indexOf(' ');
      if (at < 0 || payload.slice(0, at) === origin) return;
      forgetHere(kind, payload.slice(at + 1));
    }),
  );
  return () => {
    announcers.delete(announce);
    for (const off of offs) off();
  };
}
