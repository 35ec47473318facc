import { z } from 'zod';

/** All-zero tenant id used when none is configured (spec 9). */
export const DEFAULT_TENANT_ID = '00000000-0000-0000-0000-000000000000';
/** Root organisation id the picker ignores (spec 9). */
export const ROOT_ORG_ID = '00000000000000000000000000000000';

export const Id = z.uuid();
export const Timestamp = z.string().describe('ISO 8601 date-time');

/** Success envelope: `{ code: 0, msg: 'success', data }`. */
export const ok = <T extends z.ZodType>(data: T) =>
  z.object({ code: z.literal(0), msg: z.string(), data });

export const PageQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).default(20),
});

export const page = <T extends z.ZodType>(item: T) =>
  z.object({
    items: z.array(item),
    total: z.number().int(),
    page: z.number().int(),
    page_size: z.number().int(),
  });

/** 0 disabled, 1 enabled (spec 4). */
export const Status = z.union([z.literal(0), z.literal(1)]);
export type Status = z.infer<typeof Status>;

export const Empty = z.null();
