/**
 * Catalogue codes the client tests on every page (guards, reactions, route errors), without
 * schemas/errors.ts: that module builds zod schemas, and zod is not in a page's first load (issue 21).
 * The type ties each to the catalogue; error-codes.test.ts checks the values.
 */
import type { ErrorCode } from '../../schemas/errors';

/** VALIDATION-1000: bad parameter, or a resource missing, deleted, foreign or not joined. */
export const PARAM_ERROR = 'VALIDATION-1000' satisfies ErrorCode;
