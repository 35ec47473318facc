/** CONSOLE workspaces group (spec 7.5; TEAM.md "CONSOLE workspaces"): project spaces and members. */
import type { z } from 'zod';
import type { page } from '../../schemas/common';
import type {
  Member,
  MemberAddBody,
  MemberListQuery,
  MemberUpdateBody,
  Workspace,
  WorkspaceCreateBody,
  WorkspaceListQuery,
  WorkspaceUpdateBody,
} from '../../schemas/workspace';
import { WORKSPACE_PAGE_MAX } from '../../schemas/workspace-limits';
import { guard } from './guard';
import { answerSchemas } from './guard-schemas';
import { ApiError, call, ClientErrorCode, rejectLocally, type Endpoint, type RequestOptions } from './request';

type Opts = Omit<RequestOptions, 'responseType' | 'schema'>;
type Page<T extends z.ZodType> = z.output<ReturnType<typeof page<T>>>;

/** The answers, checked by guards made from their zod schemas: zod stays out of the console home's first load (issue 28). */
const answers = {
  workspaces: guard<Page<typeof Workspace>>(answerSchemas.workspacePage),
  workspace: guard<z.output<typeof Workspace>>(answerSchemas.workspace),
  none: guard<null>(answerSchemas.none),
  members: guard<Page<typeof Member>>(answerSchemas.memberPage),
  memberList: guard<z.output<typeof Member>[]>(answerSchemas.memberList),
  member: guard<z.output<typeof Member>>(answerSchemas.member),
};
const answer = <K extends keyof typeof answers>(key: K): (typeof answers)[K] => answers[key];

const base = '/api/v1/console/workspaces';
export const workspaceEndpoints = {
  list: { method: 'GET', url: base, name: 'workspaces.list' },
  create: { method: 'POST', url: base, name: 'workspaces.create' },
  update: { method: 'PUT', url: base, name: 'workspaces.update' },
  get: { method: 'GET', url: `${base}/:workspace_id`, name: 'workspaces.get' },
  remove: { method: 'DELETE', url: `${base}/:workspace_id`, name: 'workspaces.remove' },
  members: { method: 'GET', url: `${base}/:workspace_id/members`, name: 'workspaces.members' },
  addMembers: { method: 'POST', url: `${base}/:workspace_id/members`, name: 'workspaces.addMembers' },
  updateMember: { method: 'PUT', url: `${base}/:workspace_id/members/:member_id`, name: 'workspaces.updateMember' },
  removeMember: { method: 'DELETE', url: `${base}/:workspace_id/members/:member_id`, name: 'workspaces.removeMember' },
  exit: { method: 'POST', url: `${base}/:workspace_id/exit`, name: 'workspaces.exit' },
  transfer: { method: 'PUT', url: `${base}/transfer`, name: 'workspaces.transfer' },
} as const satisfies Record<string, Endpoint>;

export type WorkspaceListParams = Partial<z.infer<typeof WorkspaceListQuery>>;
export type MemberListParams = Partial<z.infer<typeof MemberListQuery>>;
export type WorkspaceCreateInput = z.input<typeof WorkspaceCreateBody>;
export type WorkspaceUpdateInput = z.input<typeof WorkspaceUpdateBody>;
export type MemberAddInput = z.input<typeof MemberAddBody>;
export type MemberUpdateInput = z.input<typeof MemberUpdateBody>;

/** The caller's project spaces with their role (`role_type`). Spec 9: page 1, page_size 1000 by default. */
export const listWorkspaces = (q: WorkspaceListParams = {}, opts?: Opts) =>
  call(answer('workspaces'), workspaceEndpoints.list, { page: 1, page_size: WORKSPACE_PAGE_MAX, ...q }, opts);

/** Creates a project space; the caller becomes its owner. */
export const createWorkspace = (body: WorkspaceCreateInput, opts?: Opts) => call(answer('workspace'), workspaceEndpoints.create, body, opts);

/** Changes a project space (owner only): `id` plus the fields to change. */
export const updateWorkspace = (body: WorkspaceUpdateInput, opts?: Opts) =>
  call(answer('workspace'), workspaceEndpoints.update, body, { workspaceId: body.id, ...opts });

/** One project space (members only; otherwise 400 VALIDATION-1000). */
export const getWorkspace = (workspace_id: string, opts?: Opts) =>
  call(answer('workspace'), workspaceEndpoints.get, { workspace_id }, { workspaceId: workspace_id, ...opts });

/** Deletes a project space (owner only). */
export const deleteWorkspace = (workspace_id: string, opts?: Opts) =>
  call(answer('none'), workspaceEndpoints.remove, { workspace_id }, { workspaceId: workspace_id, ...opts });

export const listMembers = (workspace_id: string, q: MemberListParams = {}, opts?: Opts) =>
  call(answer('members'), workspaceEndpoints.members, { workspace_id, ...q }, { workspaceId: workspace_id, ...opts });

/** Adds users as members (owner or admin); answers the new members. */
export const addMembers = (workspace_id: string, body: MemberAddInput, opts?: Opts) =>
  call(answer('memberList'), workspaceEndpoints.addMembers, { workspace_id, ...body }, { workspaceId: workspace_id, ...opts });

/** Sets a member's role (owner only). */
export const updateMember = (workspace_id: string, member_id: string, body: MemberUpdateInput, opts?: Opts) =>
  call(answer('member'), workspaceEndpoints.updateMember, { workspace_id, member_id, ...body }, { workspaceId: workspace_id, ...opts });

/** Removes a member (owner only; not the owner). */
export const removeMember = (workspace_id: string, member_id: string, opts?: Opts) =>
  call(answer('none'), workspaceEndpoints.removeMember, { workspace_id, member_id }, { workspaceId: workspace_id, ...opts });

/** Leaves a project space (any member but the owner). */
export const exitWorkspace = (workspace_id: string, opts?: Opts) =>
  call(answer('none'), workspaceEndpoints.exit, { workspace_id }, { workspaceId: workspace_id, ...opts });

export interface TransferInput {
  workspace_id?: string | null;
  /** The member (workspace_members.id) who becomes the owner. */
  member_id?: string | null;
}

/**
 * Transfers ownership to another member (owner only); the old owner becomes admin. Answers the
 * workspace. A missing workspace_id or member id is rejected locally before any call (spec 5, 8.3):
 * ApiError CLIENT-INVALID-INPUT with `data: { missing, messageKey: 'errors:client.transferMissingIds' }`,
 * shown like any other failure per `reaction`.
 */
export function transferWorkspace(body: TransferInput, opts: Opts = {}): Promise<Workspace> {
  const missing = (['workspace_id', 'member_id'] as const).filter((k) => !body?.[k]);
  if (missing.length > 0) {
    const error = new ApiError({
      status: 0,
      code: ClientErrorCode.INVALID_INPUT,
      msg: `Transfer needs ${missing.join(' and ')}`,
      data: { missing, messageKey: 'errors:client.transferMissingIds' },
    });
    return rejectLocally(workspaceEndpoints.transfer, { ...body }, opts, error);
  }
  const { workspace_id, member_id } = body as { workspace_id: string; member_id: string };
  return call(answer('workspace'), workspaceEndpoints.transfer, { workspace_id, member_id }, { workspaceId: workspace_id, ...opts });
}
