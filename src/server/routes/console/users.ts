import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok, page } from '../../../../schemas/common';
import { UpdatePasswordBody } from '../../../../schemas/auth';
import {
  EnsureStatusBody,
  EnsureStatusResult,
  OrgsAndUsers,
  OrgWithUsersBody,
  PickerUser,
  PickerUserListQuery,
  SearchBody,
  UsersByIdsBody,
} from '../../../../schemas/org';
import type { ServerContext } from '../../context';
import { requireCaller } from '../../context';
import * as svc from '../../services/orgs';
import { changeOwnPassword } from './base';

const tags = ['console: users'];
const done = <T>(data: T) => ({ code: 0 as const, msg: 'success', data });

/**
 * The console users group (spec 7.5 users): the picker calls of the console and the caller's own
 * password. Any signed-in user; always the caller's own tenant; only enabled users.
 */
export const consoleUserRoutes = (ctx: ServerContext): FastifyPluginAsyncZod => async (app) => {
  const { db } = ctx;

  app.post(
    '/update-password',
    { schema: { tags, summary: 'Change own password (as /base/update_password)', body: UpdatePasswordBody, response: { 200: ok(z.null()) } } },
    async (req) => {
      const caller = requireCaller(req);
      await changeOwnPassword(ctx, caller.userId, req.ip, req.body.old_password, req.body.new_password);
      return done(null);
    },
  );

  app.get(
    '/',
    {
      schema: {
        tags,
        summary: "Enabled users of the caller's tenant by name (realName, username, nickname)",
        querystring: PickerUserListQuery,
        response: { 200: ok(page(PickerUser)) },
      },
    },
    async (req) => done(await svc.listPickerUsers(db, requireCaller(req).tenantId, req.query)),
  );

  app.post(
    '/users-by-ids',
    { schema: { tags, summary: 'Enabled users by id (unknown ids left out)', body: UsersByIdsBody, response: { 200: ok(z.array(PickerUser)) } } },
    async (req) => done(await svc.usersByIds(db, requireCaller(req).tenantId, req.body.userIds)),
  );

  app.post(
    '/orgs-with-users',
    {
      schema: {
        tags,
        summary: "An organisation's direct child organisations and a page of its direct users",
        body: OrgWithUsersBody,
        response: { 200: ok(OrgsAndUsers) },
      },
    },
    async (req) => {
      const { orgId, page: pageNo, page_size } = req.body;
      const { node, users } = await svc.orgWithUsers(db, requireCaller(req).tenantId, orgId, pageNo, page_size);
      return done({ orgs: node.children, users });
    },
  );

  app.post(
    '/search-orgs-and-users',
    {
      schema: {
        tags,
        summary: 'Organisations and a page of users whose names contain nameLike (case-insensitive)',
        body: SearchBody,
        response: { 200: ok(OrgsAndUsers) },
      },
    },
    async (req) => {
      const { nameLike, page: pageNo, page_size } = req.body;
      return done(await svc.searchOrgsAndUsers(db, requireCaller(req).tenantId, nameLike, pageNo, page_size));
    },
  );

  app.post(
    '/users-ensure-status',
    {
      schema: {
        tags,
        summary: 'Per organisation: all, half or none of its enabled users (sub-organisations included) are selected',
        body: EnsureStatusBody,
        response: { 200: ok(EnsureStatusResult) },
      },
    },
    async (req) => done(await svc.ensureStatus(db, requireCaller(req).tenantId, req.body.orgUsers)),
  );
};
