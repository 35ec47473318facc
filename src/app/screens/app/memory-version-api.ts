/**
 * An in-memory {@link VersionApi} for stories and tests: an app with a few published versions, its
 * draft with a revision (saves follow the server's optimistic concurrency: a stale base answers 409
 * CONFLICT-1000 with the stored revision), and the server's refusals as ApiErrors.
 */
import type { AppDraft, AppVersion, AppVersionDetail, DraftConflict } from '../../../../schemas/app';
import { createEmptyFlow, type FlowDocument, type FlowMode } from '../../../../schemas/flow';
import type { MemberRole } from '../../../../schemas/workspace';
import { ApiError } from '../../../api/request';
import type { VersionApi } from './version-api';

export interface MemoryVersionOptions {
  /** How many versions exist (v1.0.0, v1.0.1, …; default 3). */
  versions?: number;
  mode?: FlowMode;
  role?: MemberRole;
  latencyMs?: number;
  listFails?: boolean;
  /** Publishing is refused because the draft cannot run. */
  draftInvalid?: boolean;
  /** Someone else saves the draft after the page loaded it (the next restore meets a conflict). */
  concurrentSave?: boolean;
}

export interface MemoryVersionApi extends VersionApi {
  appId: string;
  workspaceId: string;
  versions: AppVersionDetail[];
  draft(appId: string, workspaceId: string): Promise<AppDraft>;
  /** The stored draft (for assertions). */
  stored: { revision: number; document: FlowDocument };
  calls: { method: string; args: unknown[] }[];
}

const APP = '0a000000-0000-4000-8000-0000000000a2';
const WS = '0c000000-0000-4000-8000-0000000000c2';
const ME = { id: '0b000000-0000-4000-8000-0000000000b1', name: 'Ada Admin' };
const OTHER = { id: '0b000000-0000-4000-8000-0000000000b2', name: 'Bo Builder' };
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
const uuid = (n: number) => `0f000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

/** A flow whose start node's title names the version, so a restore is visible in the draft. */
function documentOf(mode: FlowMode, label: string): FlowDocument {
  const doc = createEmptyFlow(mode);
  return { ...doc, nodes: doc.nodes.map((n, i) => (i === 0 ? { ...n, title: label } : n)), notes: label };
}

export function createMemoryVersionApi(opts: MemoryVersionOptions = {}): MemoryVersionApi {
  const mode = opts.mode ?? 'workflow';
  const calls: MemoryVersionApi['calls'] = [];
  const base = Date.parse('2026-06-01T09:00:00Z');
  const versions: AppVersionDetail[] = Array.from({ length: opts.versions ?? 3 }, (_, i) => {
    const at = new Date(base + i * 86_400_000).toISOString();
    return {
      id: uuid(i + 1),
      app_id: APP,
      version: `v1.0.${i}`,
      description: i === 0 ? 'First release' : `Release ${i + 1}`,
      draft_revision: i * 3 + 2,
      draft_hash: `${i}`.repeat(64).slice(0, 64),
      draft_updated_at: at,
      created_by: i % 2 ? OTHER.id : ME.id,
      created_by_name: i % 2 ? OTHER.name : ME.name,
      created_at: at,
      document: documentOf(mode, `v1.0.${i}`),
    };
  }).reverse();
  const stored = { revision: 12, document: documentOf(mode, 'draft'), updatedAt: new Date(base + 10 * 86_400_000).toISOString(), updatedBy: ME };
  let seq = versions.length + 1;
  let draftReads = 0;

  async function step(method: string, args: unknown[]) {
    calls.push({ method, args });
    if (opts.latencyMs) await wait(opts.latencyMs);
    if (opts.listFails && method === 'list') throw new ApiError({ status: 500, code: 'SYSTEM-1500', msg: 'Server error' });
  }
  const summary = ({ document: _d, ...v }: AppVersionDetail): AppVersion => v;
  const missing = () => new ApiError({ status: 400, code: 'VALIDATION-1000', msg: 'Version does not exist or you have no permission' });
  const denied = () => new ApiError({ status: 403, code: 'PERMISSION-1000', msg: 'Permission denied' });
  const manager = () => (opts.role ?? 'admin') !== 'ordinary_member';

  const api: MemoryVersionApi = {
    appId: APP,
    workspaceId: WS,
    versions,
    get stored() {
      return { revision: stored.revision, document: stored.document };
    },
    calls,
    async list(_app, _ws, q) {
      await step('list', [q]);
      const start = (q.page - 1) * q.page_size;
      return { items: versions.slice(start, start + q.page_size).map(summary), total: versions.length };
    },
    async publish(_app, _ws, body) {
      await step('publish', [body]);
      if (!manager()) throw denied();
      const version = body.version.trim();
      if (!version) throw new ApiError({ status: 400, code: 'VALIDATION-1000', msg: 'Parameter error: body/version The version number cannot be empty' });
      if (versions.some((v) => v.version.toLowerCase() === version.toLowerCase())) {
        throw new ApiError({ status: 400, code: 'VALIDATION-1001', msg: `The app already has a version '${version}': choose another version number` });
      }
      if (opts.draftInvalid) {
        const data = [
          { path: 'node/llm', message: 'Pick a model', code: 'RUN-1000', node_id: 'llm' },
          { path: 'node/lost', message: 'This node cannot be reached from the start node', code: 'RUN-1004', node_id: 'lost' },
        ];
        throw new ApiError({ status: 400, code: 'VALIDATION-1000', msg: 'The draft cannot be published until it can run. Fix these problems first: …', data });
      }
      const now = new Date().toISOString();
      const v: AppVersionDetail = {
        id: uuid(seq++),
        app_id: APP,
        version,
        description: (body.description ?? '').trim(),
        draft_revision: stored.revision,
        draft_hash: 'f'.repeat(64),
        draft_updated_at: stored.updatedAt,
        created_by: ME.id,
        created_by_name: ME.name,
        created_at: now,
        document: stored.document,
      };
      versions.unshift(v);
      return summary(v);
    },
    async get(_app, _ws, id) {
      await step('get', [id]);
      const v = versions.find((x) => x.id === id);
      if (!v) throw missing();
      return v;
    },
    async remove(_app, _ws, id) {
      await step('remove', [id]);
      if (!manager()) throw denied();
      const i = versions.findIndex((x) => x.id === id);
      if (i < 0) throw missing();
      versions.splice(i, 1);
      return null;
    },
    async draft() {
      await step('draft', []);
      const answer: AppDraft = { app_id: APP, revision: stored.revision, document: stored.document, updated_at: stored.updatedAt, updated_by: stored.updatedBy, secrets_set: [] };
      // The other member's save lands after the page read the draft once.
      if (opts.concurrentSave && ++draftReads === 1) {
        stored.revision += 1;
        stored.document = documentOf(mode, 'edited elsewhere');
        stored.updatedAt = new Date().toISOString();
        stored.updatedBy = OTHER;
      }
      return answer;
    },
    async saveDraft(_ws, body) {
      await step('saveDraft', [body]);
      if (body.base_revision !== stored.revision) {
        const data: DraftConflict = { app_id: APP, revision: stored.revision, updated_at: stored.updatedAt, updated_by: stored.updatedBy };
        throw new ApiError({ status: 409, code: 'CONFLICT-1000', msg: `The draft was saved by ${stored.updatedBy.name} (revision ${stored.revision})`, data });
      }
      stored.revision += 1;
      stored.document = body.document as FlowDocument;
      stored.updatedAt = new Date().toISOString();
      stored.updatedBy = ME;
      return { app_id: APP, revision: stored.revision, updated_at: stored.updatedAt, updated_by: ME, secrets_set: [] };
    },
    async role() {
      await step('role', []);
      return opts.role ?? 'admin';
    },
  };
  return api;
}
