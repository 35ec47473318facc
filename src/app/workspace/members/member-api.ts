/**
 * What the member screen needs from the server, behind a context so stories and tests can pass an
 * in-memory implementation (memory-member-api.ts). The default is the real API (src/api).
 */
import { createContext, useContext } from 'react';
import type { Member, MemberRole, Workspace } from '../../../../schemas/workspace';
import {
  addMembers,
  exitWorkspace,
  getWorkspace,
  listMembers,
  removeMember,
  transferWorkspace,
  updateMember,
  type MemberListParams,
  type TransferInput,
} from '../../../api/workspaces';
import { apiPickerSource } from '../../../kit/person-org-picker/api-source';
import type { PickerDataSource, PickerPage } from '../../../kit/person-org-picker/types';

export type AssignableRole = Exclude<MemberRole, 'owner'>;

export interface MemberApi {
  getWorkspace(workspaceId: string): Promise<Workspace>;
  listMembers(workspaceId: string, q: MemberListParams): Promise<PickerPage<Member>>;
  addMembers(workspaceId: string, body: { user_ids: string[]; role: AssignableRole }): Promise<Member[]>;
  updateMember(workspaceId: string, memberId: string, body: { role: AssignableRole }): Promise<Member>;
  removeMember(workspaceId: string, memberId: string): Promise<unknown>;
  exitWorkspace(workspaceId: string): Promise<unknown>;
  /** Rejects locally (before any call) when workspace_id or member_id is missing (spec 5, 8.3). */
  transferWorkspace(body: TransferInput): Promise<Workspace>;
  /** The person picker's data. */
  picker: PickerDataSource;
}

export const apiMemberApi: MemberApi = {
  getWorkspace: (id) => getWorkspace(id),
  listMembers: (id, q) => listMembers(id, q),
  addMembers: (id, body) => addMembers(id, body),
  updateMember: (id, memberId, body) => updateMember(id, memberId, body),
  removeMember: (id, memberId) => removeMember(id, memberId),
  exitWorkspace: (id) => exitWorkspace(id),
  transferWorkspace: (body) => transferWorkspace(body),
  picker: apiPickerSource,
};

export const MemberApiContext = createContext<MemberApi>(apiMemberApi);

export const useMemberApi = () => useContext(MemberApiContext);

/** Largest members page the server allows: used to know every member when adding (they are disabled in the picker). */
export const ALL_MEMBERS_PAGE = 1000;
