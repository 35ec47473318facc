/**
 * An in-memory {@link AppApi} for stories and tests: one project space with the server's rules
 * (schemas/app.ts): any member creates, changes and sets the status; only owner and admin delete
 * (others get 403 PERMISSION-1000); names are unique in the space in any case (VALIDATION-1001);
 * newest first, name filter by substring in any case.
 *
 * @example
 * const api = createMemoryAppApi({ role: 'owner', apps: demoApps(3) });
 * <AppApiContext value={api}><AppsPage workspaceId={api.workspaceId} /></AppApiContext>
 */
import type { App, AppType } from '../../../../schemas/app';
import type { MemberRole, Workspace } from '../../../../schemas/workspace';
import { ApiError } from '../../../api/request';
import { ICON_COLORS, ICON_NAMES } from '../../../kit/widgets/icon-presets';
import type { AppApi } from './app-api';

export interface MemoryAppOptions {
  workspaceId?: string;
  workspaceName?: string;
  /** The caller's role in the space. Default 'owner'. */
  role?: MemberRole;
  /** Initial apps, newest first. */
  apps?: App[];
  latencyMs?: number;
  /** The list never answers (loading state). */
  neverLoads?: boolean;
  /** The list fails (error state). */
  listFails?: boolean;
  /** Offer icon upload (object URLs). Default true. */
  upload?: boolean;
}

export interface MemoryAppApi extends AppApi {
  workspaceId: string;
  /** The apps now, newest first (mutated by the calls). */
  apps: App[];
  calls: { method: string; args: unknown[] }[];
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
const denied = () => new ApiError({ status: 403, code: 'PERMISSION-1000', msg: 'Permission denied' });
const param = (msg: string) => new ApiError({ status: 400, code: 'VALIDATION-1000', msg });
const START = Date.parse('2025-03-01T09:00:00Z');
const USER = '0e000000-0000-4000-8000-000000000001';
const DEFAULT_WS = '0c000000-0000-4000-8000-000000000001';
const idOf = (n: number) => `0a000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

const DEMO_NAMES: [string, AppType, string][] = [
  ['Support triage', 'chatflow', 'Answers customer questions from the help centre and hands over to a person when unsure'],
  ['Invoice extractor', 'workflow', 'Reads PDF invoices and writes the fields to the finance database'],
  ['Research assistant', 'agent', 'Searches the web and the knowledge base, then writes a short brief'],
  ['Release crew', 'agent_team', 'A planner, a writer and a reviewer that prepare release notes together'],
  ['Meeting notes', 'workflow', 'Turns a transcript into decisions and action items'],
  ['HR policy bot', 'chatflow', 'Answers questions about leave, travel and expenses'],
];

/** `count` sample apps (names, modes and icons cycle), newest first. */
export function demoApps(count: number, workspaceId = DEFAULT_WS): App[] {
  return Array.from({ length: count }, (_, i) => {
    const [name, type, description] = DEMO_NAMES[i % DEMO_NAMES.length];
    const at = new Date(START + (count - i) * 3_600_000 * 5).toISOString();
    return {
      id: idOf(i + 1),
      workspace_id: workspaceId,
      name: i < DEMO_NAMES.length ? name : `${name} ${Math.floor(i / DEMO_NAMES.length) + 1}`,
      description,
      type,
      icon: { icon: ICON_NAMES[i % ICON_NAMES.length], iconColor: ICON_COLORS[i % ICON_COLORS.length].background },
      status: i % 5 === 4 ? 'inactive' : 'active',
      created_by: USER,
      created_by_name: 'Olivia Wang',
      created_at: at,
      updated_at: at,
      draft_revision: 1,
    };
  });
}

export function createMemoryAppApi(opts: MemoryAppOptions = {}): MemoryAppApi {
  const workspaceId = opts.workspaceId ?? DEFAULT_WS;
  const role = opts.role ?? 'owner';
  let seq = 100;
  let clock = Date.now();
  const now = () => new Date((clock += 1000)).toISOString();

  const api: MemoryAppApi = {
    workspaceId,
    apps: opts.apps ? [...opts.apps] : [],
    calls: [],
    async getWorkspace(id) {
      await step('getWorkspace', [id]);
      mine(id);
      return workspace();
    },
    async listApps(id, q) {
      await step('listApps', [id, q]);
      if (opts.neverLoads) return new Promise(() => {});
      if (opts.listFails) throw new ApiError({ status: 500, code: 'SYSTEM-1500', msg: 'Internal error' });
      mine(id);
      const needle = q.name?.trim().toLowerCase();
      const rows = api.apps.filter((a) => (!needle || a.name.toLowerCase().includes(needle)) && (!q.type || a.type === q.type) && (!q.status || a.status === q.status));
      const page = Number(q.page ?? 1);
      const size = Number(q.page_size ?? 20);
      return { items: rows.slice((page - 1) * size, page * size), total: rows.length, page, page_size: size };
    },
    async createApp(id, body) {
      await step('createApp', [id, body]);
      mine(id);
      const name = body.name.trim();
      if (!name || name.length > 50 || !body.description.trim() || !(body.icon.icon || body.icon.iconPath)) throw param('Invalid app');
      taken(name);
      const at = now();
      const app: App = {
        id: idOf(++seq),
        workspace_id: workspaceId,
        name,
        description: body.description.trim(),
        type: body.type,
        icon: body.icon,
        status: 'active',
        created_by: USER,
        created_by_name: 'Olivia Wang',
        created_at: at,
        updated_at: at,
        draft_revision: 1,
      };
      api.apps.unshift(app);
      return app;
    },
    async updateApp(id, appId, body) {
      await step('updateApp', [id, appId, body]);
      mine(id);
      const app = find(appId);
      if (body.name !== undefined) taken(body.name.trim(), appId);
      Object.assign(app, { ...body, ...(body.name !== undefined ? { name: body.name.trim() } : {}), updated_at: now() });
      return { ...app };
    },
    async deleteApp(id, appId) {
      await step('deleteApp', [id, appId]);
      mine(id);
      if (role === 'ordinary_member') throw denied();
      find(appId);
      api.apps = api.apps.filter((a) => a.id !== appId);
      return null;
    },
    async setStatus(id, appId, status) {
      await step('setStatus', [id, appId, status]);
      mine(id);
      const app = find(appId);
      Object.assign(app, { status, updated_at: now() });
      return { ...app };
    },
    ...(opts.upload === false
      ? {}
      : {
          async uploadIcon(file: File) {
            await step('uploadIcon', [file.name]);
            return { iconPath: URL.createObjectURL(file), iconId: `file-${++seq}` };
          },
        }),
  };

  async function step(method: string, args: unknown[]) {
    api.calls.push({ method, args });
    await wait(opts.latencyMs ?? 0);
  }
  function mine(id: string) {
    if (id !== workspaceId) throw param('The project space does not exist or you have no permission');
  }
  function find(appId: string) {
    const app = api.apps.find((a) => a.id === appId);
    if (!app) throw param('The app does not exist');
    return app;
  }
  function taken(name: string, except?: string) {
    if (api.apps.some((a) => a.id !== except && a.name.toLowerCase() === name.toLowerCase())) {
      throw new ApiError({ status: 400, code: 'VALIDATION-1001', msg: `An app named "${name}" already exists` });
    }
  }
  function workspace(): Workspace {
    return {
      id: workspaceId,
      name: opts.workspaceName ?? 'Customer support bots',
      description: '',
      icon: '',
      role_type: role,
      member_count: 4,
      created_at: new Date(START).toISOString(),
      updated_at: new Date(START).toISOString(),
    };
  }
  return api;
}
