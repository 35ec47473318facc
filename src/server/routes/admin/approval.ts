import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../../../schemas/common';
import { ApprovalCommentBody, ApprovalDetail, ApprovalParams, ApprovalSettings, ApprovalSettingsBody } from '../../../../schemas/approval';
import type { ServerContext } from '../../context';
import { requireSystemRole } from '../../context';
import { getSettings, putSettings } from '../../approvals/approvers';
import { act } from '../../approvals/flow';
import { getApproval } from '../../approvals/read';

const tags = ['admin: approval'];
const done = <T>(data: T) => ({ code: 0 as const, msg: 'success', data });
const admins = ['super_admin', 'tenant_admin'] as const;

/**
 * System › Approval (schemas/approval.ts): the caller's tenant's setting (tenant admins and super
 * admins, each for their own tenant) and the admin's forced recall of an agreed item.
 */
export const adminApprovalRoutes = (ctx: ServerContext): FastifyPluginAsyncZod => async (app) => {
  // Role first, so that a caller without the role gets 403 whatever the input.
  app.addHook('preValidation', async (req) => {
    requireSystemRole(req, ...admins);
  });
  app.get('/settings', { schema: { tags, summary: "Whether the tenant's store submissions and portal distributions go through approval, and who approves", response: { 200: ok(ApprovalSettings) } } }, async (req) =>
    done(await getSettings(ctx, requireSystemRole(req, ...admins))),
  );
  app.put(
    '/settings',
    { schema: { tags, summary: 'Turn approval on or off for store submissions and portal distributions and choose the approvers (people, organisations, the tenant admin role)', body: ApprovalSettingsBody, response: { 200: ok(ApprovalSettings) } } },
    async (req) => done(await putSettings(ctx, requireSystemRole(req, ...admins), req.body)),
  );
  app.post(
    '/:id/force-recall',
    { schema: { tags, summary: 'Force the recall of an agreed item: the store item leaves the store, the portal distribution is cancelled', params: ApprovalParams, body: ApprovalCommentBody.optional(), response: { 200: ok(ApprovalDetail) } } },
    async (req) => {
      const caller = requireSystemRole(req, ...admins);
      await act(ctx, caller, req.params.id, 'force_recall', req.body?.comment ?? '');
      return done(await getApproval(ctx, caller, req.params.id));
    },
  );
};
