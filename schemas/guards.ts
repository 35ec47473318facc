import { z } from 'zod';
import { ErrorCode } from './errors';

/**
 * Zod helpers whose failures carry a specific catalogue code in `params.code`; the server's error
 * handler answers with that code instead of the generic VALIDATION-1000.
 */
export const coded = (code: ErrorCode, message: string) => ({ message, params: { code } });

/** page_size with a maximum that answers VALIDATION-1009 when exceeded. */
export const pageSize = (max: number, fallback = 20) =>
  z.coerce
    .number()
    .int()
    .min(1)
    .default(fallback)
    .refine((v) => v <= max, coded(ErrorCode.PAGE_SIZE_TOO_LARGE, `page_size exceeds the maximum ${max}`));

export const pageNumber = z.coerce.number().int().min(1).default(1);

/** A create body must not carry an id (VALIDATION-1002). */
export const noId = {
  id: z
    .unknown()
    .optional()
    .refine((v) => v === undefined, coded(ErrorCode.CREATE_WITH_ID, 'Create data cannot contain id')),
};

/** An update body must carry an id (VALIDATION-1003). */
export const needsId = {
  id: z
    .string()
    .optional()
    .refine((v) => v !== undefined && v !== '', coded(ErrorCode.UPDATE_WITHOUT_ID, 'Update data must contain id'))
    .pipe(z.uuid()),
};

/** Optional text trimmed; empty string counts as not given. */
export const optText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .optional()
    .transform((v) => (v === '' ? undefined : v));
