import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../../../schemas/common';
import {
  OrgsAndUsers,
  OrgsByIdsBody,
  OrgWithUsersBody,
  PickerOrg,
  PickerOrgWithUsers,
  PickerUser,
  SearchBody,
  SwitchAppEntry,
  UsersByIdsBody,
} from '../../../../schemas/org';
import type { ServerContext } from '../../context';
import { requireCaller } from '../../context';
import * as svc from '../../services/orgs';

const tags = ['common: org picker'];
const done = <T>(data: T) => ({ code: 0 as const, msg: 'success', data });

/**
 * The person/org picker (spec 3 "Picker user", "Picker org"; spec 9): any signed-in user, always
 * in the caller's own tenant. Only enabled users are shown or counted; ids of another tenant are
 * unknown.
 */
export const commonOrgRoutes = (ctx: ServerContext): FastifyPluginAsyncZod => async (app) => {
  const { db } = ctx;

  app.post(
    '/tree-list',
    { schema: { tags, summary: "The caller's organisation tree (children nested, empList empty)", response: { 200: ok(z.array(PickerOrg)) } } },
    async (req) => done(await svc.orgTree(db, requireCaller(req).tenantId)),
  );

  app.post(
    '/by-orgId',
    {
      schema: {
        tags,
        summary: 'One organisation with its direct children and a page of its direct users (empList; 80 per page by default)',
        body: OrgWithUsersBody,
        response: { 200: ok(PickerOrgWithUsers) },
      },
    },
    async (req) => {
      const { orgId, page, page_size } = req.body;
      const { node, users } = await svc.orgWithUsers(db, requireCaller(req).tenantId, orgId, page, page_size);
      return done({ ...node, empList: users.items, empTotal: users.total, page: users.page, page_size: users.page_size });
    },
  );

  app.post(
    '/by-orgIds',
    { schema: { tags, summary: 'The given organisations (unknown ids left out)', body: OrgsByIdsBody, response: { 200: ok(z.array(PickerOrg)) } } },
    async (req) => done(await svc.orgsByIds(db, requireCaller(req).tenantId, req.body.orgIds)),
  );

  app.post(
    '/search',
    {
      schema: {
        tags,
        summary: 'Organisations and a page of users whose names contain nameLike (case-insensitive)',
        body: SearchBody,
        response: { 200: ok(OrgsAndUsers) },
      },
    },
    async (req) => {
      const { nameLike, page, page_size } = req.body;
      return done(await svc.searchOrgsAndUsers(db, requireCaller(req).tenantId, nameLike, page, page_size));
    },
  );

  app.post(
    '/users/by-userIds',
    { schema: { tags, summary: 'Enabled users by id (unknown ids left out)', body: UsersByIdsBody, response: { 200: ok(z.array(PickerUser)) } } },
    async (req) => done(await svc.usersByIds(db, requireCaller(req).tenantId, req.body.userIds)),
  );
};

/** GET /common/switch-app-config: the platform switcher's entries for the caller. */
export const switchAppRoutes = (): FastifyPluginAsyncZod => async (app) => {
  app.get(
    '/switch-app-config',
    {
      schema: {
        tags: ['common'],
        summary: 'Platform switcher entries: console, portal, and system admin for super and tenant admins',
        response: { 200: ok(z.array(SwitchAppEntry)) },
      },
    },
    async (req) => {
      const caller = requireCaller(req);
      const entries: SwitchAppEntry[] = [
        { code: 'console', name: 'Console', url: '/operation' },
        { code: 'portal', name: 'Portal', url: '/portal' },
      ];
      if (caller.role === 'super_admin' || caller.role === 'tenant_admin') {
        entries.push({ code: 'system', name: 'System admin', url: '/operation/system' });
      }
      return done(entries);
    },
  );
};
