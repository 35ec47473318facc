import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../../../schemas/common';
import { AppImportBody, AppImportResult, IMPORT_MAX_CHARS } from '../../../../schemas/app-import';
import type { ServerContext } from '../../context';
import { badRequest } from '../../errors';
import { importApp, importIntoApp } from '../../services/apps-import';
import { scopeOf } from '../../services/workspace-resources';

const tags = ['console: apps'];
const headers = z.looseObject({ 'x-workspace-id': z.string().optional().describe('The project space (required; missing: VALIDATION-1008)') });
const done = <T>(data: T) => ({ code: 0 as const, msg: 'success', data });
/** A file of IMPORT_MAX_CHARS characters is up to 4 bytes each in UTF-8, and JSON escapes some. */
const MAX_BODY_BYTES = IMPORT_MAX_CHARS * 4 + 1024 * 1024;

/** The multipart form's fields as the JSON body's (the file's text in `content`). */
async function multipartBody(req: FastifyRequest): Promise<unknown> {
  const body: Record<string, unknown> = {};
  try {
    for await (const part of req.parts({ limits: { fileSize: IMPORT_MAX_CHARS * 4, files: 1, fields: 5, fieldSize: 2048 } })) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file' || 'content' in body) {
          await part.toBuffer();
          throw badRequest('Send one file, in the multipart field "file"', [{ path: `body/${part.fieldname}`, message: 'unexpected' }]);
        }
        body.content = (await part.toBuffer()).toString('utf8');
      } else if (part.fieldname === 'name' || part.fieldname === 'description') {
        body[part.fieldname] = String(part.value);
      }
    }
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw badRequest(`The file is too large: at most ${IMPORT_MAX_CHARS / 1024 / 1024} MB`);
    if (code?.startsWith('FST_')) throw badRequest(`Invalid upload: ${(e as Error).message}`);
    throw e;
  }
  return body;
}

/**
 * POST /apps/import: a new app from a Dify DSL or Weft flow file, answering the import's report
 * (any member of the project space; the app's type is the file's mode).
 */
export const appImportRoutes = (ctx: ServerContext): FastifyPluginAsyncZod => async (app) => {
  await app.register(multipart, { throwFileSizeLimit: true });
  app.post(
    '/import',
    {
      bodyLimit: MAX_BODY_BYTES,
      schema: {
        tags,
        summary:
          'Create an app from a flow file (any member): JSON { content, name?, description? } or multipart (file, name?, description?). Answers the app and the report (mapped, unmapped, warnings); a file that cannot be imported answers VALIDATION-1000 with data.errors and creates nothing',
        headers,
        consumes: ['application/json', 'multipart/form-data'],
        response: { 200: ok(AppImportResult) },
      },
    },
    async (req) => done(await importApp(ctx, scopeOf(req), await importBody(req))),
  );
  app.post(
    '/:app_id/import',
    {
      bodyLimit: MAX_BODY_BYTES,
      schema: {
        tags,
        summary:
          "Replace an app's draft with a flow file (the editor's import; roles as for saving the draft): the same body and report as POST /apps/import (name and description are not used). A file of another mode answers APP-1001 with data.mode and data.expected; nothing changes on any error",
        headers,
        params: z.object({ app_id: z.string().max(64) }),
        consumes: ['application/json', 'multipart/form-data'],
        response: { 200: ok(AppImportResult) },
      },
    },
    async (req) => done(await importIntoApp(ctx, scopeOf(req), req.params.app_id, await importBody(req))),
  );
};

/** The body of either import, JSON or multipart, checked against its schema. */
async function importBody(req: FastifyRequest): Promise<AppImportBody> {
  const raw = req.isMultipart() ? await multipartBody(req) : req.body;
  const parsed = AppImportBody.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({ path: `body/${i.path.join('/')}`, message: i.message }));
    throw badRequest(`Parameter error: ${issues[0]?.path} ${issues[0]?.message}`, issues);
  }
  return parsed.data;
}
