import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { FileParams } from '../../../../schemas/knowledge';
import type { ServerContext } from '../../context';
import { AppError } from '../../errors';
import { ErrorCode } from '../../../../schemas/errors';
import { fileBytes, publicIcon } from '../../services/files';
import { IMMUTABLE_CACHE } from '../../http/cache';

/**
 * COMMON files: the public icon route. App icons are shown with <img src>, which sends no token, so
 * this route needs none (see auth.ts); it serves only files uploaded as 'icon' with an image type,
 * SVG under a CSP that runs nothing, never sniffed, cached for a long time (a file never changes).
 */
export const commonFileRoutes = (ctx: ServerContext): FastifyPluginAsyncZod => async (app) => {
  app.get(
    '/:file_id/icon',
    { schema: { tags: ['common: files'], summary: 'An uploaded icon image (no token needed; icon uploads only)', security: [], params: FileParams } },
    async (req, reply) => {
      const row = await publicIcon(ctx, req.params.file_id);
      if (!row) throw new AppError(404, ErrorCode.PARAM, 'Icon does not exist');
      const bytes = await fileBytes(ctx, row);
      reply.header('x-content-type-options', 'nosniff');
      reply.header('cache-control', IMMUTABLE_CACHE);
      reply.header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'");
      reply.header('cross-origin-resource-policy', 'same-site');
      return reply.type(row.mimeType).send(bytes);
    },
  );
};
