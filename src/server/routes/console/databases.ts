import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok, page } from '../../../../schemas/common';
import {
  CheckResult,
  Database,
  DatabaseCheckBody,
  DatabaseCreateBody,
  DatabaseListQuery,
  DatabasePassword,
  DatabaseUpdateBody,
} from '../../../../schemas/database';
import type { ServerContext } from '../../context';
import * as svc from '../../services/databases';
import { scopeOf } from '../../services/workspace-resources';

const tags = ['console: databases'];
const headers = z.looseObject({ 'x-workspace-id': z.string().optional().describe('The project space (required; missing: VALIDATION-1008)') });
// Checked by the service: a malformed, missing or other workspace's id is VALIDATION-1000.
const Params = z.object({ database_id: z.string().describe('Database id') });
const done = <T>(data: T) => ({ code: 0 as const, msg: 'success', data });

/** External databases of the project space named by X-Workspace-Id (spec 3, 5, 7.5, 9). */
export const databaseRoutes = (ctx: ServerContext): FastifyPluginAsyncZod => async (app) => {
  app.get(
    '/',
    {
      schema: {
        tags,
        summary: 'Databases of the project space, newest first, password masked (any member)',
        headers,
        querystring: DatabaseListQuery,
        response: { 200: ok(page(Database)) },
      },
    },
    async (req) => done(await svc.listDatabases(ctx, scopeOf(req), req.query)),
  );

  app.post(
    '/',
    {
      schema: {
        tags,
        summary: "Add a database (owner, admin); status 'detecting' until the background check finishes",
        headers,
        body: DatabaseCreateBody,
        response: { 200: ok(Database) },
      },
    },
    async (req) => {
      const { id: _id, ...input } = req.body;
      return done(await svc.createDatabase(ctx, scopeOf(req), input));
    },
  );

  app.put(
    '/',
    {
      schema: {
        tags,
        summary: 'Change a database (owner, admin); a password left out or masked keeps the stored one',
        headers,
        body: DatabaseUpdateBody,
        response: { 200: ok(Database) },
      },
    },
    async (req) => done(await svc.updateDatabase(ctx, scopeOf(req), req.body)),
  );

  app.post(
    '/check-connection',
    {
      schema: {
        tags,
        summary: 'Connect with unsaved settings and run a trivial query (owner, admin); a failure is a result, not an error',
        headers,
        body: DatabaseCheckBody,
        response: { 200: ok(CheckResult) },
      },
    },
    async (req) => done(await svc.checkSettings(ctx, scopeOf(req), req.body)),
  );

  app.get(
    '/:database_id',
    { schema: { tags, summary: 'One database, password masked (any member)', headers, params: Params, response: { 200: ok(Database) } } },
    async (req) => done(await svc.getDatabase(ctx, scopeOf(req), req.params.database_id)),
  );

  app.delete(
    '/:database_id',
    { schema: { tags, summary: 'Delete a database (owner, admin)', headers, params: Params, response: { 200: ok(z.null()) } } },
    async (req) => {
      await svc.deleteDatabase(ctx, scopeOf(req), req.params.database_id);
      return done(null);
    },
  );

  app.get(
    '/:database_id/password',
    { schema: { tags, summary: 'The plain password of a database (owner, admin)', headers, params: Params, response: { 200: ok(DatabasePassword) } } },
    async (req) => done(await svc.revealPassword(ctx, scopeOf(req), req.params.database_id)),
  );

  app.get(
    '/:database_id/check',
    {
      schema: {
        tags,
        summary: 'Check the saved settings now and record the detection status (any member)',
        headers,
        params: Params,
        response: { 200: ok(Database) },
      },
    },
    async (req) => done(await svc.recheckDatabase(ctx, scopeOf(req), req.params.database_id)),
  );
};
