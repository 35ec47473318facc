import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../../../schemas/common';
import { ApprovalCommentBody, ApprovalDetail, ApprovalList, ApprovalListQuery, ApprovalNotifications, ApprovalParams, ApprovalReturnBody } from '../../../../schemas/approval';
import type { ServerContext } from '../../context';
import { requireCaller } from '../../context';
import { act, type ApprovalDecision } from '../../approvals/flow';
import { getApproval, listApprovals, markSeen, notifications } from '../../approvals/read';

const tags = ['console: approvals'];
const done = <T>(data: T) => ({ code: 0 as const, msg: 'success', data });

const SUMMARIES: Record<Exclude<ApprovalDecision, 'force_recall'>, string> = {
  agree: 'Agree (an approver, not the submitter): the store item awaits release, the portal distribution takes effect',
  return: 'Return for changes with a required comment (an approver): the submitter submits again',
  reject: 'Reject, with an optional comment (an approver)',
  cancel: 'Cancel a processing or returned submission (its submitter)',
  recall: 'Recall an agreed store item that is not released yet (its submitter)',
};

/**
 * Approvals in the console (schemas/approval.ts): every signed-in user of the tenant reads their boxes
 * and acts on what they may; the server checks tenant, role and state on every transition (a wrong
 * state: 409 APPROVAL-1000, not an approver: 403 APPROVAL-1001, one's own: 403 APPROVAL-1002).
 */
export const approvalRoutes = (ctx: ServerContext): FastifyPluginAsyncZod => async (app) => {
  app.get(
    '/',
    { schema: { tags, summary: "The caller's approvals: to approve (todo), submitted by them (mine), or the whole tenant's (tenant admins)", querystring: ApprovalListQuery, response: { 200: ok(ApprovalList) } } },
    async (req) => done(await listApprovals(ctx, requireCaller(req), req.query)),
  );
  app.get(
    '/notifications',
    { schema: { tags, summary: "The console bell: approvals waiting for the caller and decisions on the caller's submissions not seen yet", response: { 200: ok(ApprovalNotifications) } } },
    async (req) => done(await notifications(ctx, requireCaller(req))),
  );
  app.post(
    '/seen',
    { schema: { tags, summary: 'The caller has seen the decisions on their submissions', response: { 200: ok(ApprovalNotifications) } } },
    async (req) => done(await markSeen(ctx, requireCaller(req))),
  );
  app.get(
    '/:id',
    { schema: { tags, summary: 'One approval with its steps and approvers (its submitter, approvers and tenant admins)', params: ApprovalParams, response: { 200: ok(ApprovalDetail) } } },
    async (req) => done(await getApproval(ctx, requireCaller(req), req.params.id)),
  );
  for (const action of Object.keys(SUMMARIES) as (keyof typeof SUMMARIES)[]) {
    app.post(
      `/:id/${action}`,
      { schema: { tags, summary: SUMMARIES[action], params: ApprovalParams, body: action === 'return' ? ApprovalReturnBody : ApprovalCommentBody.optional(), response: { 200: ok(ApprovalDetail) } } },
      async (req) => {
        const caller = requireCaller(req);
        await act(ctx, caller, req.params.id, action, (req.body as { comment?: string } | undefined)?.comment ?? '');
        return done(await getApproval(ctx, caller, req.params.id));
      },
    );
  }
};
