import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { ErrorCode } from '../../../../schemas/errors';
import type { ServerContext } from '../../context';
import { AppError } from '../../errors';
import { touchApiKey, verifyApiKey } from '../../security/api-keys';
import './key';
import { rateLimiterOf } from '../../security/rate-limit';
import { audioRoutes } from './audio';
import { difyRoutes } from './dify';
import { mcpRoutes } from './mcp';
import { named } from '../plugin-name';
import { openAiRoutes } from './openai';

type Issue = { instancePath: string; message?: string };

/** What an error answers: status, catalogue code, message and headers. */
function describe(err: unknown, req: FastifyRequest): { status: number; code: string; message: string; headers: Record<string, string> } {
  if (err instanceof AppError) return { status: err.status, code: err.code, message: err.message, headers: err.headers };
  if (hasZodFastifySchemaValidationErrors(err)) {
    const context = (err as { validationContext?: string }).validationContext ?? '';
    const issues = (err.validation as Issue[]).map((i) => `${context}${i.instancePath} ${i.message ?? 'invalid'}`);
    return { status: 400, code: ErrorCode.PARAM, message: `Parameter error: ${issues.join('; ')}`, headers: {} };
  }
  if (isResponseSerializationError(err as never)) {
    req.log.error({ err }, 'response did not match its schema');
    return { status: 500, code: ErrorCode.INTERNAL, message: 'Server error', headers: {} };
  }
  const status = (err as { statusCode?: number }).statusCode ?? 500;
  if (status === 405) return { status, code: ErrorCode.METHOD_NOT_ALLOWED, message: 'Method not allowed', headers: {} };
  if (status >= 400 && status < 500) return { status: status === 413 || status === 415 ? status : 400, code: ErrorCode.PARAM, message: (err as Error).message, headers: {} };
  req.log.error({ err }, 'unhandled error');
  return { status: 500, code: ErrorCode.INTERNAL, message: 'Server error', headers: {} };
}

const isOpenAi = (url: string) => url.startsWith('/v1/chat/') || url.startsWith('/v1/models');
const openAiType = (status: number) =>
  status === 401 ? 'authentication_error' : status === 403 ? 'permission_error' : status === 429 ? 'rate_limit_error' : status >= 500 ? 'server_error' : 'invalid_request_error';

/** Dify's error body (`{ code, message, status }`), or OpenAI's on its paths. */
function sendError(reply: FastifyReply, url: string, e: { status: number; code: string; message: string; headers: Record<string, string> }) {
  const body = isOpenAi(url)
    ? { error: { message: e.message, type: openAiType(e.status), code: e.code, param: null } }
    : { code: e.code, message: e.message, status: e.status };
  return reply.status(e.status).headers(e.headers).send(body);
}

/**
 * The public API (`/v1`): its own route group with its own auth (an app or space key, never a
 * session token) and error shape. Every request is checked before its body is read: the key
 * (verified keys are kept for a few seconds), then its rate limit (security/rate-limit.ts: no
 * database round trip on the way); a refused request changes nothing.
 */
export const publicApiRoutes = (ctx: ServerContext): FastifyPluginAsync => named('publicApiRoutes', async (app) => {
  const limiter = rateLimiterOf(ctx, (e) => app.log.error({ err: e }, 'writing API request counts failed'));
  app.addHook('onClose', async () => limiter.close());
  await app.register(multipart, { throwFileSizeLimit: true });

  app.decorateRequest('apiKey', null);
  app.addHook('onRequest', async (req) => {
    const header = req.headers.authorization;
    const secret = header?.startsWith('Bearer ') ? header.slice(7).trim() : '';
    const key = secret ? await verifyApiKey(ctx, secret) : null;
    if (!key) throw new AppError(401, ErrorCode.API_KEY_INVALID, secret ? 'The API key is invalid or revoked' : 'An API key is required: Authorization: Bearer wk-…');
    const limit = key.rateLimitPerMinute ?? ctx.settings.apiRateLimit;
    const decision = await limiter.take(key.id, limit);
    if (!decision.ok) {
      throw new AppError(429, ErrorCode.RATE_LIMITED, `Too many requests: this key may make ${limit} a minute. Try again in ${decision.retryAfter} s`, { retry_after: decision.retryAfter }, {
        'retry-after': String(decision.retryAfter),
      });
    }
    touchApiKey(ctx, key.id, (e) => req.log.error({ err: e }, 'recording an API key use failed'));
    req.apiKey = key;
  });

  app.setErrorHandler((err, req, reply) => sendError(reply, req.url, describe(err, req)));
  app.setNotFoundHandler((req, reply) => {
    const url = req.url.split('?')[0];
    return sendError(reply, url, { status: 404, code: ErrorCode.ROUTE_NOT_FOUND, message: `No route ${req.method} ${url}`, headers: {} });
  });

  await app.register(named('difyRoutes', difyRoutes(ctx)));
  await app.register(named('audioRoutes', audioRoutes(ctx)));
  await app.register(named('openAiRoutes', openAiRoutes(ctx)));
  await app.register(named('mcpRoutes', mcpRoutes(ctx)));
});
