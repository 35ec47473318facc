/**
 * CONSOLE approvals and the ADMIN approval setting (issue 33; schemas/approval.ts). Every user reads
 * their boxes and acts on what they may (the server decides: APPROVAL-1000…1005, PERMISSION-1000);
 * the setting and forced recalls are tenant admins'.
 */
import type { ApprovalDetail as Detail, ApprovalList as List, ApprovalListQuery, ApprovalNotifications as Counts, ApprovalSettings as Settings, ApprovalSettingsBody } from '../../schemas/approval';
import { guard } from './guard';
import { answerSchemas } from './guard-schemas';
import { call, type Endpoint, type RequestOptions } from './request';

type Opts = Omit<RequestOptions, 'responseType' | 'schema'>;

const base = '/api/v1/console/approvals';
const admin = '/api/v1/admin/approval';
export const approvalEndpoints = {
  list: { method: 'GET', url: base, name: 'approvals.list' },
  get: { method: 'GET', url: `${base}/:id`, name: 'approvals.get' },
  act: { method: 'POST', url: `${base}/:id/:action`, name: 'approvals.act' },
  notifications: { method: 'GET', url: `${base}/notifications`, name: 'approvals.notifications' },
  seen: { method: 'POST', url: `${base}/seen`, name: 'approvals.seen' },
  settings: { method: 'GET', url: `${admin}/settings`, name: 'approvals.settings' },
  saveSettings: { method: 'PUT', url: `${admin}/settings`, name: 'approvals.saveSettings' },
  forceRecall: { method: 'POST', url: `${admin}/:id/force-recall`, name: 'approvals.forceRecall' },
} as const satisfies Record<string, Endpoint>;

// The schemas load with the first call: the console's header (the bell) carries no zod.
const schemas = () => import('../../schemas/approval');

export type ApprovalUserAction = 'agree' | 'return' | 'reject' | 'cancel' | 'recall';

export const listApprovals = (query: ApprovalListQuery, opts?: Opts): Promise<List> => call(async () => (await schemas()).ApprovalList, approvalEndpoints.list, { ...query }, opts);
export const getApproval = (id: string, opts?: Opts): Promise<Detail> => call(async () => (await schemas()).ApprovalDetail, approvalEndpoints.get, { id }, opts);
/** Agree, return (a comment is required), reject, cancel or recall; answers the approval as it stands after. */
export const actOnApproval = (id: string, action: ApprovalUserAction, comment: string, opts?: Opts): Promise<Detail> =>
  call(async () => (await schemas()).ApprovalDetail, approvalEndpoints.act, { id, action, comment }, opts);
export const forceRecall = (id: string, comment: string, opts?: Opts): Promise<Detail> => call(async () => (await schemas()).ApprovalDetail, approvalEndpoints.forceRecall, { id, comment }, opts);
/** The counts' answer, checked by a guard: the bell is in every console page, zod stays out of the first load. */
const counts = guard<Counts>(answerSchemas.approvalNotifications);
/** The bell's counts: approvals waiting for the caller, decisions on their submissions not seen yet. */
export const approvalNotifications = (opts?: Opts): Promise<Counts> => call(counts, approvalEndpoints.notifications, undefined, opts);
export const markApprovalsSeen = (opts?: Opts): Promise<Counts> => call(counts, approvalEndpoints.seen, {}, opts);
export const getApprovalSettings = (opts?: Opts): Promise<Settings> => call(async () => (await schemas()).ApprovalSettings, approvalEndpoints.settings, undefined, opts);
export const saveApprovalSettings = (body: ApprovalSettingsBody, opts?: Opts): Promise<Settings> =>
  call(async () => (await schemas()).ApprovalSettings, approvalEndpoints.saveSettings, { ...body }, opts);
