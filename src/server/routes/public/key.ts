import type { FastifyRequest } from 'fastify';
import { ErrorCode } from '../../../../schemas/errors';
import { AppError } from '../../errors';
import type { VerifiedKey } from '../../security/api-keys';

declare module 'fastify' {
  interface FastifyRequest {
    /** The verified key of a public (`/v1`) request (set by the group's onRequest hook, ./index.ts). */
    apiKey: VerifiedKey | null;
  }
}

/** The key of a public request. */
export function requireKey(req: FastifyRequest): VerifiedKey {
  if (!req.apiKey) throw new AppError(401, ErrorCode.API_KEY_INVALID, 'An API key is required: Authorization: Bearer wk-…');
  return req.apiKey;
}
