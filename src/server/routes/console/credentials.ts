import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok, page } from '../../../../schemas/common';
import {
  Credential,
  CredentialCreateBody,
  CredentialListQuery,
  CredentialSecret,
  CredentialUpdateBody,
} from '../../../../schemas/credential';
import type { ServerContext } from '../../context';
import * as svc from '../../services/credentials';
import { scopeOf } from '../../services/workspace-resources';

const tags = ['console: credentials'];
const headers = z.looseObject({ 'x-workspace-id': z.string().optional().describe('The project space (required; missing: VALIDATION-1008)') });
// Checked by the service: a malformed, missing or other workspace's id is VALIDATION-1000.
const Params = z.object({ credential_id: z.string().describe('Credential id') });
const done = <T>(data: T) => ({ code: 0 as const, msg: 'success', data });

/** Credentials of the project space named by X-Workspace-Id (spec 3, 7.5). */
export const credentialRoutes = (ctx: ServerContext): FastifyPluginAsyncZod => async (app) => {
  app.get(
    '/',
    {
      schema: {
        tags,
        summary: 'Credentials of the project space, newest first, SK masked (any member)',
        headers,
        querystring: CredentialListQuery,
        response: { 200: ok(page(Credential)) },
      },
    },
    async (req) => done(await svc.listCredentials(ctx, scopeOf(req), req.query)),
  );

  app.post(
    '/',
    { schema: { tags, summary: 'Create a credential (owner, admin); the SK is stored encrypted', headers, body: CredentialCreateBody, response: { 200: ok(Credential) } } },
    async (req) => {
      const { identifier, ak, sk, cred_id, description } = req.body;
      return done(await svc.createCredential(ctx, scopeOf(req), { identifier, ak, sk, cred_id, description }));
    },
  );

  app.put(
    '/',
    {
      schema: {
        tags,
        summary: 'Change a credential (owner, admin); an SK left out or masked keeps the stored one',
        headers,
        body: CredentialUpdateBody,
        response: { 200: ok(Credential) },
      },
    },
    async (req) => done(await svc.updateCredential(ctx, scopeOf(req), req.body)),
  );

  app.get(
    '/:credential_id',
    { schema: { tags, summary: 'One credential, SK masked (any member)', headers, params: Params, response: { 200: ok(Credential) } } },
    async (req) => done(await svc.getCredential(ctx, scopeOf(req), req.params.credential_id)),
  );

  app.delete(
    '/:credential_id',
    { schema: { tags, summary: 'Delete a credential (owner, admin)', headers, params: Params, response: { 200: ok(z.null()) } } },
    async (req) => {
      await svc.deleteCredential(ctx, scopeOf(req), req.params.credential_id);
      return done(null);
    },
  );

  app.get(
    '/:credential_id/secret-key',
    { schema: { tags, summary: 'The plain SK of a credential (owner, admin)', headers, params: Params, response: { 200: ok(CredentialSecret) } } },
    async (req) => done(await svc.revealSecretKey(ctx, scopeOf(req), req.params.credential_id)),
  );
};
