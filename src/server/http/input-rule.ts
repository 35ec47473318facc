import type { FastifyInstance } from 'fastify';
import { findTextProblem } from '../../../schemas/text';
import { badRequest } from '../errors';

/**
 * The text rule of schemas/text.ts for every route: before validation and any handler, the parsed
 * query, path parameters, headers and body are walked; a NUL character or a lone surrogate anywhere
 * answers VALIDATION-1000 with the field's path, so nothing is written. Routes cannot forget it (it
 * is registered once, on the root, before the routes). Multipart bodies are read by their handler
 * (routes/console/files.ts), which applies the same rule to field values and file names.
 */
export function registerInputRule(app: FastifyInstance): void {
  app.addHook('preValidation', async (req) => {
    const issue =
      findTextProblem(req.params, 'params') ??
      findTextProblem(req.query, 'querystring') ??
      findTextProblem(req.headers, 'headers') ??
      findTextProblem(req.body, 'body');
    if (issue) throw badRequest(`Parameter error: ${issue.path} ${issue.message}`, [issue]);
  });
}
