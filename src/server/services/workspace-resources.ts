import type { FastifyRequest } from 'fastify';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { type Caller, requireCaller, workspaceIdFromHeader } from '../context';
import { AppError } from '../errors';
import { ErrorCode } from '../../../schemas/errors';

/**
 * Shared by the workspace-scoped resources (credentials, databases, prompts): the workspace comes
 * from the X-Workspace-Id header (missing: VALIDATION-1008), the caller from the token; every
 * member reads, owner and admin write (spec 6 leaves these rules open; see the services).
 */

export interface Scope {
  caller: Caller;
  workspaceId: string;
}

export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** Owner and admin: create, update, delete, reveal secrets. */
export const MANAGERS = ['owner', 'admin'] as const;

export function scopeOf(req: FastifyRequest): Scope {
  const caller = requireCaller(req);
  return { caller, workspaceId: workspaceIdFromHeader(req) };
}

/** LIKE pattern for a case-insensitive substring match, with the wildcards in the input escaped. */
export const contains = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Serialises name checks of one kind in one workspace until the transaction ends. */
export async function lockNames(tx: Tx, kind: string, workspaceId: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`${kind}-name:${workspaceId}`}))`);
}

export { isUniqueViolation } from '../db/pg-errors';

export const nothingToChange = () => new AppError(400, ErrorCode.FORM_ALL_EMPTY, 'Form non-ID data cannot all be empty');

export const page = <T>(items: T[], total: number, q: { page: number; page_size: number }) => ({
  items,
  total: Number(total),
  page: q.page,
  page_size: q.page_size,
});
