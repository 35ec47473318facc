import { cacheChanged, onCacheChange } from '../cache-notices';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client';
import { systemSettings } from '../db/schema';
import type { NetworkPolicyLists } from '../../../schemas/network-policy';

/**
 * The super admin's lists of the outbound policy (allowed destinations, stdio MCP commands), kept
 * as one JSON value in system_settings so that every server process on the database reads the same.
 * They add to the environment's lists (WEFT_OUTBOUND_ALLOW, WEFT_MCP_STDIO_COMMANDS).
 */

export const NETWORK_POLICY_KEY = 'network_policy';

export interface StoredNetworkPolicy extends NetworkPolicyLists {
  updated_at: string | null;
  updated_by: string | null;
}

const Stored = z.object({
  allow: z.array(z.string()).catch([]),
  mcp_stdio_commands: z.array(z.string()).catch([]),
  updated_at: z.string().nullable().catch(null),
  updated_by: z.string().nullable().catch(null),
});

export const EMPTY_STORED: StoredNetworkPolicy = { allow: [], mcp_stdio_commands: [], updated_at: null, updated_by: null };

export async function readStoredPolicy(db: Db): Promise<StoredNetworkPolicy> {
  const [row] = await db.select().from(systemSettings).where(eq(systemSettings.key, NETWORK_POLICY_KEY));
  if (!row) return EMPTY_STORED;
  try {
    return Stored.parse(JSON.parse(row.value));
  } catch {
    // A value that is not ours to read opens nothing.
    return EMPTY_STORED;
  }
}

export async function writeStoredPolicy(db: Db, lists: NetworkPolicyLists, by: string): Promise<StoredNetworkPolicy> {
  const value: StoredNetworkPolicy = { allow: lists.allow, mcp_stdio_commands: lists.mcp_stdio_commands, updated_at: new Date().toISOString(), updated_by: by };
  const text = JSON.stringify(value);
  await db.insert(systemSettings).values({ key: NETWORK_POLICY_KEY, value: text }).onConflictDoUpdate({ target: systemSettings.key, set: { value: text } });
  return value;
}

/** Moved on by a change of the stored lists in any process on the database (../cache-notices.ts). */
let storedGeneration = 0;
onCacheChange('network_policy', () => storedGeneration++);

/** The stored lists changed: every process's caches read them again. */
export function storedPolicyChanged(): void {
  cacheChanged('network_policy');
}

/**
 * The stored lists, read again after a change in any process ({@link storedPolicyChanged}), at once
 * after {@link invalidate} (this process's own read or write), and at most every `reloadMs` in any
 * case (a change notice missed while the bus reconnected). Reads in flight are shared.
 */
export class StoredPolicyCache {
  private value: StoredNetworkPolicy | undefined;
  private at = 0;
  private generation = storedGeneration;
  private loadingGeneration = -1;
  private loading: Promise<StoredNetworkPolicy> | undefined;

  constructor(
    private readonly db: Db | undefined,
    private readonly reloadMs: number,
  ) {}

  get(): Promise<StoredNetworkPolicy> {
    if (!this.db) return Promise.resolve(EMPTY_STORED);
    if (this.value && this.generation === storedGeneration && Date.now() - this.at < this.reloadMs) return Promise.resolve(this.value);
    if (this.loading && this.loadingGeneration !== storedGeneration) this.loading = undefined;
    if (!this.loading) {
      const started = Date.now();
      const generation = (this.loadingGeneration = storedGeneration);
      const p = readStoredPolicy(this.db).then(
        (v) => {
          if (this.loading === p) {
            this.value = v;
            this.at = started;
            this.generation = generation;
            this.loading = undefined;
          }
          return v;
        },
        (e: unknown) => {
          if (this.loading === p) this.loading = undefined;
          throw e;
        },
      );
      this.loading = p;
    }
    return this.loading;
  }

  /** Forget what was read (this process just wrote), so the next read is fresh. */
  invalidate(value?: StoredNetworkPolicy) {
    this.loading = undefined;
    this.value = value;
    this.at = value ? Date.now() : 0;
    this.generation = storedGeneration;
  }
}
