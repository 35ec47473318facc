import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import multipart from '@fastify/multipart';
import { ok } from '../../../../schemas/common';
import { UploadedFile } from '../../../../schemas/knowledge';
import { UsageRecord, UsageRecordQuery, webPage } from '../../../../schemas/portal';
import { requireCaller, type ServerContext } from '../../context';
import { badRequest } from '../../errors';
import { limitMbOf } from '../../services/files';
import { storePortalUpload } from '../../services/portal-files';
import { listUsageRecords } from '../../services/portal-usage';

const done = <T>(data: T) => ({ code: 0 as const, msg: 'success', data });

/**
 * WEB usage records (spec 7.6 "GET usage-records", 9 "page size 10"; the legacy list call) and the
 * portal's attachment upload. The user's own records only.
 */
export const webUsageRoutes = (ctx: ServerContext): FastifyPluginAsyncZod => async (app) => {
  await app.register(multipart, { throwFileSizeLimit: true });
  const usage = { querystring: UsageRecordQuery, response: { 200: ok(webPage(UsageRecord)) } };

  app.get(
    '/usage-records',
    { schema: { tags: ['web: usage'], summary: "The user's usage records (their runs of every app and source), newest first, 10 a page", ...usage } },
    async (req) => done(await listUsageRecords(ctx, requireCaller(req), req.query)),
  );

  app.get(
    '/usage-record/list',
    { schema: { tags: ['web: usage'], summary: 'Legacy: the same as GET /usage-records', deprecated: true, ...usage } },
    async (req) => done(await listUsageRecords(ctx, requireCaller(req), req.query)),
  );

  app.post(
    '/files/upload',
    {
      schema: {
        tags: ['web: files'],
        summary: 'Upload an attachment for a portal run (multipart field `file`): owned by the user, no project space; images, documents, audio, video',
        consumes: ['multipart/form-data'],
        response: { 200: ok(UploadedFile) },
      },
    },
    async (req) => {
      const caller = requireCaller(req);
      if (!req.isMultipart()) throw badRequest('The upload must be multipart/form-data with the field file');
      const maxBytes = limitMbOf(ctx.settings, 'chat') * 1024 * 1024;
      let file: { name: string; bytes: Buffer } | undefined;
      try {
        for await (const part of req.parts({ limits: { fileSize: maxBytes, files: 1, fields: 10, fieldSize: 1024 } })) {
          if (part.type !== 'file') continue;
          if (part.fieldname !== 'file' || file) {
            await part.toBuffer();
            continue;
          }
          file = { name: (part.filename ?? '').replace(/[\\/]/g, '_').trim(), bytes: await part.toBuffer() };
        }
      } catch (e) {
        const code = (e as { code?: string }).code;
        if (code === 'FST_REQ_FILE_TOO_LARGE') throw badRequest(`The file is too large: at most ${Math.floor(maxBytes / 1024 / 1024)} MB`);
        if (code?.startsWith('FST_')) throw badRequest(`Invalid upload: ${(e as Error).message}`);
        throw e;
      }
      if (!file) throw badRequest('No file was sent (multipart field "file")', [{ path: 'body/file', message: 'required' }]);
      return done(await storePortalUpload(ctx, caller, file));
    },
  );
};
