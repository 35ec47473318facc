import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok, page } from '../../../../schemas/common';
import {
  App,
  AppCreateBody,
  AppDetail,
  AppDraft,
  AppListQuery,
  AppParams,
  AppStatusParams,
  AppUpdateBody,
  AppPublishBody,
  AppVersion,
  AppVersionDetail,
  AppVersionListQuery,
  AppVersionParams,
  DraftSaveBody,
  DraftSaved,
} from '../../../../schemas/app';
import type { ServerContext } from '../../context';
import { requireCaller, workspaceIdFromHeader } from '../../context';
import * as svc from '../../services/apps';
import { appImportRoutes } from './apps-import';
import * as versions from '../../services/apps-versions';
import { scopeOf } from '../../services/workspace-resources';
import { named } from '../plugin-name';
import { storedAnswer } from '../../http/stored-answer';

const tags = ['console: apps'];
const headers = z.looseObject({ 'x-workspace-id': z.string().optional().describe('The project space (required; missing: VALIDATION-1008)') });
const optionalWorkspace = z.looseObject({
  'x-workspace-id': z
    .string()
    .optional()
    .describe("Optional here: when given the app must be in it; without it the app's own project space is used"),
});
const done = <T>(data: T) => ({ code: 0 as const, msg: 'success', data });

/**
 * Apps of the project space named by X-Workspace-Id and their draft flows (spec 3, 5, 7.5 "apps").
 * Any member reads and builds (create, change, status, save the draft); owner and admin delete.
 * A missing, foreign or other workspace's app id answers VALIDATION-1000.
 */
export const appRoutes = (ctx: ServerContext): FastifyPluginAsyncZod => async (app) => {
  // Its own scope: the multipart parser serves the import only.
  await app.register(named('appImportRoutes', appImportRoutes(ctx)));
  app.get(
    '/',
    {
      schema: {
        tags,
        summary: 'Apps of the project space, newest first; filter by name (substring), type, status (any member)',
        headers,
        querystring: AppListQuery,
        response: { 200: ok(page(App)) },
      },
    },
    async (req) => done(await svc.listApps(ctx, scopeOf(req), req.query)),
  );

  app.post(
    '/',
    {
      schema: {
        tags,
        summary: 'Create an app (any member); its draft starts as the empty flow of its type, revision 1',
        headers,
        body: AppCreateBody,
        response: { 200: ok(App) },
      },
    },
    async (req) => {
      const { name, description, type, icon } = req.body;
      return done(await svc.createApp(ctx, scopeOf(req), { name, description, type, icon }));
    },
  );

  app.put(
    '/',
    {
      schema: {
        tags,
        summary: "Change an app's name, description or icon (any member); the type never changes",
        headers,
        body: AppUpdateBody,
        response: { 200: ok(App) },
      },
    },
    async (req) => done(await svc.updateApp(ctx, scopeOf(req), req.body)),
  );

  app.put(
    '/workflow',
    {
      schema: {
        tags,
        summary:
          'Save the draft flow (any member). base_revision must be the stored revision, else 409 CONFLICT-1000 with the current revision, time and saver in data; re-send with that revision to overwrite',
        headers,
        body: DraftSaveBody,
        response: { 200: ok(DraftSaved) },
      },
    },
    async (req) => done(await svc.saveDraft(ctx, scopeOf(req), req.body)),
  );

  app.get(
    '/:app_id',
    {
      schema: {
        tags,
        summary: "One app with its draft (any member of the app's project space)",
        headers: optionalWorkspace,
        params: AppParams,
        // The draft is answered as stored (validated when saved): http/stored-answer.ts.
        response: { 200: storedAnswer(ok(AppDetail)) },
      },
    },
    async (req) => {
      const caller = requireCaller(req);
      const workspaceId = req.headers['x-workspace-id'] ? workspaceIdFromHeader(req) : undefined;
      return done(await svc.getApp(ctx, caller, workspaceId, req.params.app_id));
    },
  );

  app.get(
    '/:app_id/workflow',
    {
      schema: { tags, summary: 'The draft flow document and its revision (any member)', headers, params: AppParams, response: { 200: storedAnswer(ok(AppDraft)) } },
    },
    async (req) => done(await svc.getDraft(ctx, scopeOf(req), req.params.app_id)),
  );

  app.delete(
    '/:app_id',
    {
      schema: { tags, summary: 'Delete an app and its draft (owner, admin)', headers, params: AppParams, response: { 200: ok(z.null()) } },
    },
    async (req) => {
      await svc.deleteApp(ctx, scopeOf(req), req.params.app_id);
      return done(null);
    },
  );

  app.put(
    '/:app_id/status/:status',
    {
      schema: {
        tags,
        summary: "Set an app's status: active or inactive (any member)",
        headers,
        params: AppStatusParams,
        response: { 200: ok(App) },
      },
    },
    async (req) => done(await svc.setAppStatus(ctx, scopeOf(req), req.params.app_id, req.params.status)),
  );

  // ------------------------------------------------------------ published versions (spec 7.5 "app publish")

  app.get(
    '/:app_id/publish',
    {
      schema: {
        tags,
        summary: "The app's published versions, newest first (any member)",
        headers,
        params: AppParams,
        querystring: AppVersionListQuery,
        response: { 200: ok(page(AppVersion)) },
      },
    },
    async (req) => done(await versions.listVersions(ctx, scopeOf(req), req.params.app_id, req.query)),
  );

  app.post(
    '/:app_id/publish',
    {
      schema: {
        tags,
        summary:
          'Publish the current draft as a version (owner, admin). The version number must be new for the app (VALIDATION-1001) and the draft must compile (VALIDATION-1000 listing the problems)',
        headers,
        params: AppParams,
        body: AppPublishBody,
        response: { 200: ok(AppVersion) },
      },
    },
    async (req) => done(await versions.publishApp(ctx, scopeOf(req), req.params.app_id, req.body)),
  );

  app.get(
    '/:app_id/publish/:version_id',
    {
      schema: {
        tags,
        summary: 'One published version with its flow document, e.g. to restore it into the draft (any member)',
        headers,
        params: AppVersionParams,
        response: { 200: ok(AppVersionDetail) },
      },
    },
    async (req) => done(await versions.getVersion(ctx, scopeOf(req), req.params.app_id, req.params.version_id)),
  );

  app.delete(
    '/:app_id/publish/:version_id',
    {
      schema: { tags, summary: 'Delete a published version (owner, admin)', headers, params: AppVersionParams, response: { 200: ok(z.null()) } },
    },
    async (req) => {
      await versions.deleteVersion(ctx, scopeOf(req), req.params.app_id, req.params.version_id);
      return done(null);
    },
  );
};
