import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { featuresOf, isChatMode, type AppFeatures, type FlowMode } from '../../../schemas/flow';
import { ErrorCode } from '../../../schemas/errors';
import type { ServerContext } from '../context';
import { AppError, badRequest } from '../errors';
import { rowsOf } from '../knowledge/queue';
import { compileVersion, type VersionFlow } from '../runs/app-flow';
import { draftRowsGeneration } from '../services/cache-generations';

/**
 * What the public API runs of an app: its DISTRIBUTED version (any platform's live distribution, the
 * latest moved first), else its latest published version; never the draft. An app never published
 * answers APP-1000; an inactive or deleted app, AUTH-1007 (the key no longer reaches anything).
 */

export interface ApiApp {
  id: string;
  tenantId: string;
  workspaceId: string;
  mode: FlowMode;
  name: string;
  description: string;
}

export interface ApiTarget {
  app: ApiApp;
  flow: VersionFlow;
  features: AppFeatures;
}

/**
 * Targets recently resolved. On the embedded database (one process) an entry lives until a write
 * that changes what is served (publish, version deletion, distribution, app status or deletion:
 * they all call forgetDraftRows); on a shared server for TARGET_TTL_MS, so another process's
 * distribution reaches this one within that time. The plan itself is cached by version id.
 */
const TARGET_TTL_MS = 2_000;
const TARGETS_MAX = 1000;
const targets = new WeakMap<object, Map<string, { at: number; generation: number; target: ApiTarget }>>();

type TargetRow = {
  id: string;
  tenant_id: string;
  workspace_id: string;
  type: FlowMode;
  name: string;
  description: string;
  status: string;
  version_id: string | null;
  version: string | null;
  document: Record<string, unknown> | string | null;
  secret_env: Record<string, string> | string | null;
};

const json = <T>(v: T | string): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v);

export async function apiTarget(ctx: ServerContext, appId: string): Promise<ApiTarget> {
  let cache = targets.get(ctx.db);
  if (!cache) targets.set(ctx.db, (cache = new Map()));
  const hit = cache.get(appId);
  const generation = draftRowsGeneration();
  if (hit && hit.generation === generation && (ctx.exclusiveDb || Date.now() - hit.at < TARGET_TTL_MS)) return hit.target;
  const [row] = rowsOf<TargetRow>(
    await ctx.db.execute(sql`
      SELECT a.id, a.tenant_id, a.workspace_id, a.type, a.name, a.description, a.status,
             v.id AS version_id, v.version, v.document, v.secret_env
      FROM apps a
      LEFT JOIN LATERAL (
        SELECT v.id, v.version, v.document, v.secret_env, 0 AS pick, d.updated_at AS at
          FROM app_distributions d JOIN app_versions v ON v.id = d.version_id
          WHERE d.app_id = a.id AND d.state = 'distributed'
        UNION ALL
        SELECT v.id, v.version, v.document, v.secret_env, 1 AS pick, v.created_at AS at
          FROM app_versions v WHERE v.app_id = a.id
        ORDER BY pick, at DESC, id DESC
        LIMIT 1
      ) v ON true
      WHERE a.id = ${appId}::uuid`),
  );
  if (!row || row.status !== 'active') throw new AppError(401, ErrorCode.API_KEY_INVALID, 'The app of this API key is not available (deleted or inactive)');
  if (!row.version_id || !row.document) {
    throw new AppError(400, ErrorCode.APP_NOT_PUBLISHED, 'The app has not been published: the API runs published versions only. Publish it in the editor first.');
  }
  const app: ApiApp = { id: row.id, tenantId: row.tenant_id, workspaceId: row.workspace_id, mode: row.type, name: row.name, description: row.description };
  const flow = compileVersion(ctx, app, { id: row.version_id, version: row.version ?? '', document: json(row.document), secretEnv: json(row.secret_env ?? {}) });
  const target: ApiTarget = { app, flow, features: featuresOf(flow.document as { features?: AppFeatures }) };
  cache.delete(appId);
  cache.set(appId, { at: Date.now(), generation, target });
  if (cache.size > TARGETS_MAX) cache.delete(cache.keys().next().value!);
  return target;
}

/** A chat app (chatflow, agent, agent team) for chat routes, a workflow for workflow routes; else VALIDATION-1000. */
export function requireMode(target: ApiTarget, chat: boolean): void {
  if (chat === isChatMode(target.app.mode)) return;
  throw badRequest(
    chat ? `The app is a ${target.app.mode}: run it with POST /v1/workflows/run` : `The app is a ${target.app.mode}: send it POST /v1/chat-messages`,
    [{ path: 'app', message: `mode ${target.app.mode}` }],
  );
}

/**
 * The end user's id in Weft's tables (runs', conversations' and files' `created_by`): a UUID derived
 * from the app (or space) and the caller's `user` string, so the same string is the same person
 * within one app and a different one in another app, as in Dify.
 */
export function endUserId(scopeId: string, user: string): string {
  const h = createHash('sha256').update(`${scopeId}\n${user}`).digest();
  h[6] = (h[6]! & 0x0f) | 0x80; // version 8 (custom), RFC 9562
  h[8] = (h[8]! & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}
