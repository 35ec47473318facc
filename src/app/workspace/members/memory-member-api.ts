/**
 * An in-memory {@link MemberApi} for stories and tests: one project space with the role rules of
 * spec 6 (owner: roles, remove, transfer; owner and admin: add; non-owners: exit), failures as the
 * server's ApiErrors, and the picker over the same people.
 *
 * @example
 * const api = createMemoryMemberApi({ me: demoId('user', 13), members: [{ userId: demoId('user', 13), role: 'owner' }] });
 * <MemberApiContext value={api}><MemberPage workspaceId={api.workspaceId} /></MemberApiContext>
 */
import type { Member, MemberRole, Workspace } from '../../../../schemas/workspace';
import { ApiError, ClientErrorCode } from '../../../api/request';
import { createMemoryPickerSource, demoPickerSeed, type MemorySeed } from '../../../kit/person-org-picker/memory-source';
import type { MemberApi } from './member-api';

export interface MemoryMemberOptions {
  workspaceId?: string;
  workspaceName?: string;
  /** The signed-in user's id. */
  me: string;
  /** Initial members, oldest first. */
  members: { userId: string; role: MemberRole }[];
  /** The tenant's people and organisations. Default: demoPickerSeed(). */
  seed?: MemorySeed;
  latencyMs?: number;
  /** The members list never answers (loading state). */
  neverLoads?: boolean;
  /** The members list fails (error state). */
  listFails?: boolean;
}

export interface MemoryMemberApi extends MemberApi {
  workspaceId: string;
  /** The members now (mutated by the calls). */
  members: Member[];
  calls: { method: string; args: unknown[] }[];
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
const denied = () => new ApiError({ status: 403, code: 'PERMISSION-1000', msg: 'Permission denied' });
const param = (msg: string) => new ApiError({ status: 400, code: 'VALIDATION-1000', msg });

export function createMemoryMemberApi(opts: MemoryMemberOptions): MemoryMemberApi {
  const seed = opts.seed ?? demoPickerSeed(40);
  const workspaceId = opts.workspaceId ?? '0c000000-0000-4000-8000-000000000001';
  const picker = createMemoryPickerSource(seed, { latencyMs: opts.latencyMs });
  const start = Date.parse('2025-03-01T09:00:00Z');
  let serial = 0;
  const toMember = (userId: string, role: MemberRole, i: number): Member => {
    const u = seed.users.find((x) => x.id === userId);
    serial++;
    return {
      id: `0d000000-0000-4000-8000-${(serial + 1000).toString(16).padStart(12, '0')}`,
      user_id: userId,
      name: u?.name ?? userId,
      serial_number: `E${String(1000 + serial)}`,
      account: u?.username ?? userId,
      role,
      nick_name: u ? u.name.split(' ')[0] : '',
      avatar: u?.avatar ?? '',
      added_at: new Date(start + i * 3_600_000 * 7).toISOString(),
    };
  };
  const api: MemoryMemberApi = {
    workspaceId,
    members: opts.members.map((m, i) => toMember(m.userId, m.role, i)),
    calls: [],
    picker,
    async getWorkspace(id) {
      await step('getWorkspace', [id]);
      const me = mine(id);
      return workspace(me.role);
    },
    async listMembers(id, q) {
      await step('listMembers', [id, q]);
      if (opts.neverLoads) await new Promise(() => {});
      if (opts.listFails) throw new ApiError({ status: 500, code: 'SYSTEM-1500', msg: 'Internal error' });
      mine(id);
      const rank = { owner: 0, admin: 1, ordinary_member: 2 } as const;
      const needle = q.name?.trim().toLowerCase();
      const rows = api.members
        .filter((m) => !q.role || m.role === q.role)
        .filter((m) => !needle || [m.name, m.account, m.nick_name].some((x) => x.toLowerCase().includes(needle)))
        .sort((a, b) => rank[a.role] - rank[b.role] || a.added_at.localeCompare(b.added_at));
      const page = q.page ?? 1;
      const size = q.page_size ?? 20;
      return { items: rows.slice((page - 1) * size, page * size), total: rows.length, page, page_size: size };
    },
    async addMembers(id, body) {
      await step('addMembers', [id, body]);
      const me = mine(id);
      if (me.role === 'ordinary_member') throw denied();
      // Spec 6: roles are the owner's, so only the owner adds members as admins.
      if (body.role !== 'ordinary_member' && me.role !== 'owner') throw denied();
      const already = body.user_ids.filter((u) => api.members.some((m) => m.user_id === u));
      if (already.length) throw new ApiError({ status: 400, code: 'VALIDATION-1001', msg: 'Some users are already members', data: { user_ids: already } });
      const added = body.user_ids.map((u, i) => toMember(u, body.role, api.members.length + i));
      api.members.push(...added);
      return added;
    },
    async updateMember(id, memberId, body) {
      await step('updateMember', [id, memberId, body]);
      if (mine(id).role !== 'owner') throw denied();
      const m = member(memberId);
      if (m.role === 'owner') throw param("The owner's role cannot be changed");
      m.role = body.role;
      return m;
    },
    async removeMember(id, memberId) {
      await step('removeMember', [id, memberId]);
      if (mine(id).role !== 'owner') throw denied();
      const m = member(memberId);
      if (m.role === 'owner') throw param('The owner cannot be removed');
      api.members = api.members.filter((x) => x.id !== memberId);
      return null;
    },
    async exitWorkspace(id) {
      await step('exitWorkspace', [id]);
      const me = mine(id);
      if (me.role === 'owner') throw param('The owner cannot leave the project space');
      api.members = api.members.filter((x) => x.id !== me.id);
      return null;
    },
    async transferWorkspace(body) {
      const missing = (['workspace_id', 'member_id'] as const).filter((k) => !body?.[k]);
      if (missing.length) {
        throw new ApiError({ status: 0, code: ClientErrorCode.INVALID_INPUT, msg: 'Transfer needs ids', data: { missing, messageKey: 'errors:client.transferMissingIds' } });
      }
      await step('transferWorkspace', [body]);
      const me = mine(body.workspace_id!);
      if (me.role !== 'owner') throw denied();
      const target = member(body.member_id!);
      if (target.id === me.id) throw param('You are already the owner');
      me.role = 'admin';
      target.role = 'owner';
      return workspace('admin');
    },
  };

  async function step(method: string, args: unknown[]) {
    api.calls.push({ method, args });
    await wait(opts.latencyMs ?? 0);
  }
  function mine(id: string) {
    const me = api.members.find((m) => m.user_id === opts.me);
    if (id !== workspaceId || !me) throw param('The project space does not exist or you have no permission');
    return me;
  }
  function member(memberId: string) {
    const m = api.members.find((x) => x.id === memberId);
    if (!m) throw param('Member does not exist');
    return m;
  }
  function workspace(role: MemberRole): Workspace {
    return {
      id: workspaceId,
      name: opts.workspaceName ?? 'Customer support bots',
      description: '',
      icon: '',
      role_type: role,
      member_count: api.members.length,
      created_at: new Date(start).toISOString(),
      updated_at: new Date(start).toISOString(),
    };
  }
  return api;
}
