import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import multipart from '@fastify/multipart';
import { z } from 'zod';
import { ok } from '../../../../schemas/common';
import type { FieldIssue } from '../../../../schemas/errors';
import { findTextProblem } from '../../../../schemas/text';
import { FileBatchIn, FileBizType, FileInfo, FileParams, FilePreview, UploadedFile } from '../../../../schemas/knowledge';
import { requireCaller, type ServerContext } from '../../context';
import { badRequest } from '../../errors';
import { decodeText, parseFile } from '../../knowledge/parse';
import { contentDisposition, fileBytes, limitMbOf, readableFile, readableFiles, storeUpload, toFileInfo } from '../../services/files';

const tags = ['console: files'];
const headers = z.looseObject({ 'x-workspace-id': z.string().optional().describe('The project space (required for dataset and debug files)') });
const done = <T>(data: T) => ({ code: 0 as const, msg: 'success', data });
const PREVIEW_CHARS = 20_000;
const PREVIEW_ROWS = 50;

/** The workspace header when present (files of icons and chats may belong to the tenant only). */
function workspaceOf(raw: unknown): string | undefined {
  const v = Array.isArray(raw) ? raw[0] : raw;
  return typeof v === 'string' && v ? v : undefined;
}

/** CONSOLE files group (spec 7.5 files): upload (multipart file + biz_type), describe one or many, preview, download. */
export const fileRoutes = (ctx: ServerContext): FastifyPluginAsyncZod => async (app) => {
  await app.register(multipart, { throwFileSizeLimit: true });

  app.post(
    '/upload',
    {
      schema: {
        tags,
        summary: "Upload one file (multipart: biz_type 'dataset' | 'debug' | 'icon' | 'chat', then file); size and type checked by biz_type",
        headers,
        consumes: ['multipart/form-data'],
        response: { 200: ok(UploadedFile) },
      },
    },
    async (req) => {
      const caller = requireCaller(req);
      if (!req.isMultipart()) throw badRequest('The upload must be multipart/form-data with the fields biz_type and file');
      const maxBytes = Math.max(limitMbOf(ctx.settings, 'dataset'), limitMbOf(ctx.settings, 'icon')) * 1024 * 1024;
      let biz: string | undefined;
      let file: { name: string; bytes: Buffer } | undefined;
      // The text rule of every request (schemas/text.ts) for what only this handler reads: field
      // values and file names (the parts are all read first, then the first problem answered).
      let textIssue: FieldIssue | undefined;
      try {
        for await (const part of req.parts({ limits: { fileSize: maxBytes, files: 1, fields: 10, fieldSize: 1024 } })) {
          textIssue ??=
            findTextProblem(part.fieldname, `body/${part.fieldname}`) ??
            (part.type === 'file' ? findTextProblem(part.filename ?? '', `body/${part.fieldname}/filename`) : findTextProblem(part.value, `body/${part.fieldname}`));
          if (part.type === 'file') {
            if (part.fieldname !== 'file' || file) {
              await part.toBuffer();
              continue;
            }
            file = { name: part.filename ?? '', bytes: await part.toBuffer() };
          } else if (part.fieldname === 'biz_type') {
            biz = String(part.value);
          }
        }
      } catch (e) {
        const code = (e as { code?: string }).code;
        if (code === 'FST_REQ_FILE_TOO_LARGE') throw badRequest(`The file is too large: at most ${Math.floor(maxBytes / 1024 / 1024)} MB`);
        if (code?.startsWith('FST_')) throw badRequest(`Invalid upload: ${(e as Error).message}`);
        throw e;
      }
      if (textIssue) throw badRequest(`Parameter error: ${textIssue.path} ${textIssue.message}`, [textIssue]);
      const parsed = FileBizType.safeParse(biz);
      if (!parsed.success) throw badRequest(`biz_type must be one of ${FileBizType.options.join(', ')}`, [{ path: 'body/biz_type', message: 'invalid' }]);
      if (!file) throw badRequest('No file was sent (multipart field "file")', [{ path: 'body/file', message: 'required' }]);
      return done(await storeUpload(ctx, caller, workspaceOf(req.headers['x-workspace-id']), { bizType: parsed.data, ...file }));
    },
  );

  app.get(
    '/:file_id',
    { schema: { tags, summary: 'Describe a file the caller may read (name, size, type, biz type, project space, created at)', params: FileParams, response: { 200: ok(FileInfo) } } },
    async (req) => done(toFileInfo(await readableFile(ctx, requireCaller(req), req.params.file_id))),
  );

  app.post(
    '/batch',
    {
      schema: {
        tags,
        summary: 'Describe up to 100 files: those the caller may read, in the order asked, once each (others are left out)',
        body: FileBatchIn,
        response: { 200: ok(z.array(FileInfo)) },
      },
    },
    async (req) => done((await readableFiles(ctx, requireCaller(req), req.body.file_ids)).map(toFileInfo)),
  );

  app.get(
    '/:file_id/preview',
    {
      schema: {
        tags,
        summary: 'Preview a file: text, images and PDF inline with their type; Word and Excel files as JSON (text or first rows)',
        params: FileParams,
        response: { 200: ok(FilePreview) },
      },
    },
    async (req, reply) => {
      const row = await readableFile(ctx, requireCaller(req), req.params.file_id);
      const bytes = await fileBytes(ctx, row);
      reply.header('x-content-type-options', 'nosniff');
      reply.header('cache-control', 'private, no-cache');
      const type = row.mimeType;
      if (type.startsWith('image/') || type === 'application/pdf') {
        if (type === 'image/svg+xml') reply.header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'");
        reply.header('content-disposition', contentDisposition('inline', row.name));
        return reply.type(type).send(bytes as never);
      }
      if (type.startsWith('text/') && type !== 'text/html') {
        reply.header('content-disposition', contentDisposition('inline', row.name));
        reply.header('content-security-policy', "default-src 'none'");
        const text = decodeText(bytes);
        return reply.type(`${type === 'text/csv' ? 'text/csv' : 'text/plain'}; charset=utf-8`).send(text as never);
      }
      let parsed;
      try {
        parsed = await parseFile({ bytes, name: row.name });
      } catch (e) {
        throw badRequest(`This file cannot be previewed: ${(e as Error).message}`);
      }
      if (parsed.kind === 'text') {
        return done({ name: row.name, kind: 'text' as const, text: parsed.text.slice(0, PREVIEW_CHARS), truncated: parsed.text.length > PREVIEW_CHARS });
      }
      return done({
        name: row.name,
        kind: 'table' as const,
        sheets: parsed.sheets.map((s) => ({ name: s.name, headers: s.headers, rows: s.rows.slice(0, PREVIEW_ROWS), total_rows: s.rows.length })),
        truncated: parsed.sheets.some((s) => s.rows.length > PREVIEW_ROWS),
      });
    },
  );

  app.get(
    '/:file_id/download',
    { schema: { tags, summary: 'Download a file as an attachment (UTF-8 file name)', params: FileParams } },
    async (req, reply) => {
      const row = await readableFile(ctx, requireCaller(req), req.params.file_id);
      const bytes = await fileBytes(ctx, row);
      reply.header('content-disposition', contentDisposition('attachment', row.name));
      reply.header('x-content-type-options', 'nosniff');
      reply.header('cache-control', 'private, no-cache');
      return reply.type(row.mimeType).send(bytes);
    },
  );
};
