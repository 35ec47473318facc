/**
 * An in-memory {@link DistributeApi} for stories and tests, following the server's rules
 * (src/server/services/distribution.ts): only the owner writes (PERMISSION-1000), `tool` takes
 * workflow apps only, nothing is distributed without a published version or while the app is
 * inactive, a cancel keeps the record, "a newer version is available" when a later version exists.
 */
import type { AppVersion } from '../../../../schemas/app';
import {
  DISTRIBUTION_PLATFORMS,
  type DistributionBlock,
  type DistributionList,
  type DistributionPlatform,
  type DistributionView,
  type StoreReviewState,
} from '../../../../schemas/distribution';
import type { FlowMode } from '../../../../schemas/flow';
import { ApiError } from '../../../api/request';
import type { DistributeApi } from './distribute-api';

type Record_ = NonNullable<DistributionView['distribution']>;

/** A platform's record to start with: distributed or cancelled, on the version at `versionIndex` (0 = oldest). */
export interface MemoryDistribution {
  state: 'distributed' | 'cancelled';
  versionIndex: number;
  review?: StoreReviewState;
  reviewReason?: string;
}

export interface MemoryDistributeOptions {
  /** The caller is the space's owner (default true); otherwise an admin. */
  owner?: boolean;
  /** Published versions (v1.0.0, v1.0.1, …; default 3). */
  versions?: number;
  mode?: FlowMode;
  inactive?: boolean;
  records?: Partial<Record<DistributionPlatform, MemoryDistribution>>;
  latencyMs?: number;
  listFails?: boolean;
}

export interface MemoryDistributeApi extends DistributeApi {
  appId: string;
  workspaceId: string;
  mode: FlowMode;
  /** The published versions, oldest first. */
  published: AppVersion[];
  calls: { method: string; args: unknown[] }[];
}

const APP = '0a000000-0000-4000-8000-0000000000a3';
const WS = '0c000000-0000-4000-8000-0000000000c3';
const OWNER = { id: '0b000000-0000-4000-8000-0000000000b1', name: 'Olga Owner' };
const TOOL = '0d000000-0000-4000-8000-0000000000d1';
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
const uuid = (kind: string, n: number) => `${kind}000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
const base = Date.parse('2026-06-01T09:00:00Z');
const DAY = 86_400_000;

export function createMemoryDistributeApi(opts: MemoryDistributeOptions = {}): MemoryDistributeApi {
  const mode = opts.mode ?? 'chatflow';
  const owner = opts.owner ?? true;
  const calls: MemoryDistributeApi['calls'] = [];
  // Oldest first here; the API answers newest first.
  const versions: AppVersion[] = Array.from({ length: opts.versions ?? 3 }, (_, i) => ({
    id: uuid('0f', i + 1),
    app_id: APP,
    version: `v1.0.${i}`,
    description: `Release ${i + 1}`,
    draft_revision: i + 2,
    draft_hash: `${i}`.repeat(64),
    draft_updated_at: new Date(base + i * DAY).toISOString(),
    created_by: OWNER.id,
    created_by_name: OWNER.name,
    created_at: new Date(base + i * DAY).toISOString(),
  }));
  const ref = (v: AppVersion) => ({ id: v.id, version: v.version, created_at: v.created_at });
  const latest = () => versions.at(-1);
  const records = new Map<DistributionPlatform, Record_>();
  let seq = 1;
  for (const [platform, r] of Object.entries(opts.records ?? {}) as [DistributionPlatform, MemoryDistribution][]) {
    const v = versions[r.versionIndex];
    const at = new Date(base + (r.versionIndex + 1) * DAY).toISOString();
    records.set(platform, {
      id: uuid('0e', seq++),
      version: v ? ref(v) : null,
      distributed_by: OWNER.id,
      distributed_by_name: OWNER.name,
      distributed_at: at,
      updated_at: at,
      cancelled_by_name: r.state === 'cancelled' ? OWNER.name : null,
      cancelled_at: r.state === 'cancelled' ? new Date(base + (r.versionIndex + 2) * DAY).toISOString() : null,
      review_state: platform === 'store' ? (r.review ?? 'awaiting_release') : null,
      review_reason: platform === 'store' ? (r.reviewReason ?? null) : null,
      tool_id: platform === 'tool' ? TOOL : null,
    });
  }

  function blockOf(platform: DistributionPlatform): DistributionBlock | null {
    if (!owner) return 'not_owner';
    if (platform === 'tool' && mode !== 'workflow') return 'mode';
    if (!versions.length) return 'no_version';
    if (opts.inactive) return 'inactive';
    return null;
  }
  const view = (): DistributionList => ({
    platforms: DISTRIBUTION_PLATFORMS.map((platform) => {
      const d = records.get(platform) ?? null;
      const state = !d ? 'not_distributed' : d.cancelled_at ? 'cancelled' : 'distributed';
      const newest = latest();
      const newer = state === 'distributed' && !!newest && !!d?.version && newest.id !== d.version.id && newest.created_at > d.version.created_at;
      return { platform, state, distribution: d ? structuredClone(d) : null, newer_version_available: newer, blocked: blockOf(platform) };
    }),
    latest_version: latest() ? ref(latest()!) : null,
    is_owner: owner,
  });

  const step = async (method: string, args: unknown[]) => {
    calls.push({ method, args });
    if (opts.latencyMs) await wait(opts.latencyMs);
    if (opts.listFails && method === 'list') throw new ApiError({ status: 500, code: 'SYSTEM-1500', msg: 'Server error' });
    if (method !== 'list' && method !== 'versions' && !owner) {
      throw new ApiError({ status: 403, code: 'PERMISSION-1000', msg: "Only the project space's owner distributes apps" });
    }
  };
  const missing = (what: string) => new ApiError({ status: 400, code: 'VALIDATION-1000', msg: `${what} does not exist or you have no permission` });
  const versionOf = (id: string | undefined) => {
    const v = id ? versions.find((x) => x.id === id) : latest();
    if (!v) throw missing('Version');
    return v;
  };

  return {
    appId: APP,
    workspaceId: WS,
    mode,
    published: versions,
    calls,
    async list() {
      await step('list', []);
      return view();
    },
    async versions() {
      await step('versions', []);
      return [...versions].reverse();
    },
    async distribute(_app, _ws, body) {
      await step('distribute', [body]);
      const blocked = blockOf(body.platform);
      if (blocked) throw new ApiError({ status: 400, code: 'VALIDATION-1000', msg: `Cannot distribute: ${blocked}`, data: { blocked } });
      const d = records.get(body.platform);
      if (d && !d.cancelled_at) throw new ApiError({ status: 400, code: 'VALIDATION-1001', msg: `The app is already distributed on ${body.platform}` });
      const v = versionOf(body.version_id);
      const now = new Date().toISOString();
      records.set(body.platform, {
        id: d?.id ?? uuid('0e', seq++),
        version: ref(v),
        distributed_by: OWNER.id,
        distributed_by_name: OWNER.name,
        distributed_at: now,
        updated_at: now,
        cancelled_by_name: null,
        cancelled_at: null,
        review_state: body.platform === 'store' ? 'awaiting_release' : null,
        review_reason: null,
        tool_id: body.platform === 'tool' ? TOOL : null,
      });
      return view();
    },
    async move(_app, _ws, body) {
      await step('move', [body]);
      const d = [...records.values()].find((x) => x.id === body.id);
      if (!d) throw missing('Distribution');
      if (d.cancelled_at) throw new ApiError({ status: 400, code: 'VALIDATION-1000', msg: 'The app is not distributed there: distribute it first' });
      if (opts.inactive) throw new ApiError({ status: 400, code: 'VALIDATION-1000', msg: 'The app is inactive: enable it before moving its distribution' });
      d.version = ref(versionOf(body.version_id));
      d.updated_at = new Date().toISOString();
      return view();
    },
    async cancel(_app, _ws, id) {
      await step('cancel', [id]);
      const d = [...records.values()].find((x) => x.id === id);
      if (!d) throw missing('Distribution');
      if (d.cancelled_at) throw new ApiError({ status: 400, code: 'VALIDATION-1000', msg: 'The distribution is already cancelled' });
      d.cancelled_at = new Date().toISOString();
      d.cancelled_by_name = OWNER.name;
      return view();
    },
  };
}
