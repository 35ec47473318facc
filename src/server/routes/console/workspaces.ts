import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok, page } from '../../../../schemas/common';
import {
  Member,
  MemberAddBody,
  MemberListQuery,
  MemberUpdateBody,
  TransferBody,
  Workspace,
  WorkspaceCreateBody,
  WorkspaceListQuery,
  WorkspaceUpdateBody,
} from '../../../../schemas/workspace';
import type { ServerContext } from '../../context';
import { requireCaller } from '../../context';
import * as svc from '../../services/workspaces';

const tags = ['console: workspaces'];

// Path ids are checked by the service (a malformed, missing, foreign or not-joined id is the same
// VALIDATION-1000 'does not exist or no permission').
const WorkspaceParams = z.object({ workspace_id: z.string().describe('Workspace id') });
const MemberParams = WorkspaceParams.extend({ member_id: z.string().describe('Member id (workspace_members.id)') });

const done = <T>(data: T) => ({ code: 0 as const, msg: 'success', data });

/** Project spaces and their members (spec 3, 4, 6; TEAM.md "CONSOLE workspaces"). */
export const workspaceRoutes = (ctx: ServerContext): FastifyPluginAsyncZod => async (app) => {
  const { db } = ctx;

  app.get(
    '/',
    {
      schema: {
        tags,
        summary: "The caller's project spaces, newest first, with the caller's role (role_type)",
        querystring: WorkspaceListQuery,
        response: { 200: ok(page(Workspace)) },
      },
    },
    async (req) => done(await svc.listWorkspaces(db, requireCaller(req), req.query)),
  );

  app.post(
    '/',
    { schema: { tags, summary: 'Create a project space; the caller becomes its owner', body: WorkspaceCreateBody, response: { 200: ok(Workspace) } } },
    async (req) => {
      const { name, description, icon } = req.body;
      return done(await svc.createWorkspace(db, requireCaller(req), { name, description, icon }));
    },
  );

  app.put(
    '/',
    { schema: { tags, summary: 'Change a project space (owner only)', body: WorkspaceUpdateBody, response: { 200: ok(Workspace) } } },
    async (req) => done(await svc.updateWorkspace(db, requireCaller(req), req.body)),
  );

  // Registered before '/:workspace_id' routes; fastify prefers the static segment anyway.
  app.put(
    '/transfer',
    {
      schema: {
        tags,
        summary: 'Transfer ownership to another member (owner only); the old owner becomes admin',
        body: TransferBody,
        response: { 200: ok(Workspace) },
      },
    },
    async (req) => done(await svc.transferOwnership(db, requireCaller(req), req.body.workspace_id, req.body.member_id)),
  );

  app.get(
    '/:workspace_id',
    { schema: { tags, summary: 'One project space (members only)', params: WorkspaceParams, response: { 200: ok(Workspace) } } },
    async (req) => done(await svc.getWorkspace(db, requireCaller(req), req.params.workspace_id)),
  );

  app.delete(
    '/:workspace_id',
    { schema: { tags, summary: 'Delete a project space and its memberships (owner only)', params: WorkspaceParams, response: { 200: ok(z.null()) } } },
    async (req) => {
      await svc.deleteWorkspace(db, requireCaller(req), req.params.workspace_id);
      return done(null);
    },
  );

  app.get(
    '/:workspace_id/members',
    {
      schema: {
        tags,
        summary: 'Members of a project space: owner, then admins, then by time added',
        params: WorkspaceParams,
        querystring: MemberListQuery,
        response: { 200: ok(page(Member)) },
      },
    },
    async (req) => done(await svc.listMembers(db, requireCaller(req), req.params.workspace_id, req.query)),
  );

  app.post(
    '/:workspace_id/members',
    {
      schema: {
        tags,
        summary: 'Add users of the tenant as members (owner or admin; as admin: owner only); answers the new members',
        params: WorkspaceParams,
        body: MemberAddBody,
        response: { 200: ok(z.array(Member)) },
      },
    },
    async (req) => done(await svc.addMembers(db, requireCaller(req), req.params.workspace_id, req.body)),
  );

  app.put(
    '/:workspace_id/members/:member_id',
    {
      schema: {
        tags,
        summary: "Set a member's role (owner only; the owner's own role changes by transfer)",
        params: MemberParams,
        body: MemberUpdateBody,
        response: { 200: ok(Member) },
      },
    },
    async (req) =>
      done(await svc.updateMemberRole(db, requireCaller(req), req.params.workspace_id, req.params.member_id, req.body.role)),
  );

  app.delete(
    '/:workspace_id/members/:member_id',
    { schema: { tags, summary: 'Remove a member (owner only; not the owner)', params: MemberParams, response: { 200: ok(z.null()) } } },
    async (req) => {
      await svc.removeMember(db, requireCaller(req), req.params.workspace_id, req.params.member_id);
      return done(null);
    },
  );

  app.post(
    '/:workspace_id/exit',
    { schema: { tags, summary: 'Leave a project space (any member but the owner)', params: WorkspaceParams, response: { 200: ok(z.null()) } } },
    async (req) => {
      await svc.exitWorkspace(db, requireCaller(req), req.params.workspace_id);
      return done(null);
    },
  );
};
