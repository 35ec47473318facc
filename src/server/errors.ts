import type { FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { ErrorCode } from '../../schemas/errors';

/** An error answer with a catalogue code. Throw it from any route or service. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly data: unknown = null,
    /** Headers the answer carries (e.g. Retry-After on a 429). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const badRequest = (msg: string, data: unknown = null) => new AppError(400, ErrorCode.PARAM, msg, data);
/**
 * The key a client translates a missing record by: `what` in snake case ('Knowledge base' →
 * 'knowledge_base'; the catalogue's `errors:missing.<resource>`).
 */
export const resourceKey = (what: string) => what.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '');

/**
 * A missing or foreign id: VALIDATION-1000 (the client reads it as 'does not exist or no permission').
 * `data.resource` names what is missing, so the client says it in the user's language (issue 28).
 */
export const notFoundOrForeign = (what: string, id: string) =>
  new AppError(400, ErrorCode.PARAM, `${what} does not exist or you have no permission`, { id, resource: resourceKey(what) });
export const forbidden = (msg = 'Permission denied') => new AppError(403, ErrorCode.FORBIDDEN, msg);
export const unauthenticated = (msg = 'Not signed in or the session expired') =>
  new AppError(401, ErrorCode.UNAUTHENTICATED, msg);
export const exists = (msg: string) => new AppError(400, ErrorCode.EXISTS, msg);

type Issue = { instancePath: string; message?: string; keyword?: string; params?: Record<string, unknown> };

/**
 * What a client needs to say a field issue in its own language (issue 28): the zod rule
 * (`too_big`, `invalid_format`…), what was checked (`string`, `number`, `array`) and the limit.
 */
function ruleOf(i: Issue): Record<string, unknown> {
  const p = i.params ?? {};
  const limit = p.maximum ?? p.minimum;
  return {
    ...(i.keyword ? { rule: i.keyword } : {}),
    ...(typeof p.origin === 'string' ? { origin: p.origin } : {}),
    ...(typeof limit === 'number' || typeof limit === 'bigint' ? { limit: Number(limit) } : {}),
  };
}

function codeOf(issues: Issue[]): ErrorCode {
  for (const i of issues) {
    const nested = (i.params?.params as { code?: ErrorCode } | undefined)?.code;
    if (nested) return nested;
  }
  return ErrorCode.PARAM;
}

/** One envelope for every error: `{ code, msg, data }`; invalid input never answers 500. */
export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((err, req, reply) => {
    if (err instanceof AppError) {
      return reply.status(err.status).headers(err.headers).send({ code: err.code, msg: err.message, data: err.data });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const issues = err.validation as Issue[];
      const data = issues.map((i) => ({
        path: `${(err as { validationContext?: string }).validationContext ?? ''}${i.instancePath}`,
        message: i.message ?? 'invalid',
        ...ruleOf(i),
      }));
      const code = codeOf(issues);
      const msg = code === ErrorCode.PARAM ? `Parameter error: ${data.map((d) => `${d.path} ${d.message}`).join('; ')}` : data[0]?.message ?? 'Parameter error';
      return reply.status(400).send({ code, msg, data });
    }
    if (isResponseSerializationError(err as never)) {
      req.log.error({ err }, 'response did not match its schema');
      return reply.status(500).send({ code: ErrorCode.INTERNAL, msg: 'Server error', data: null });
    }
    const status = (err as { statusCode?: number }).statusCode ?? 500;
    if (status === 405) return reply.status(405).send({ code: ErrorCode.METHOD_NOT_ALLOWED, msg: 'Method not allowed', data: null });
    if (status >= 400 && status < 500) {
      // Fastify's own 4xx (bad JSON, body too large, wrong content type): a parameter error.
      return reply.status(status === 413 || status === 415 ? status : 400).send({ code: ErrorCode.PARAM, msg: (err as Error).message, data: null });
    }
    req.log.error({ err }, 'unhandled error');
    return reply.status(500).send({ code: ErrorCode.INTERNAL, msg: 'Server error', data: null });
  });
}
