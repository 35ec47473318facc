import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq } from 'drizzle-orm';
import type { GbiMessage, GbiSession } from '../../../schemas/gbi';
import type { ServerContext } from '../context';
import { requireMembership, UUID_RE } from '../context';
import { gbiMessages, gbiSessions } from '../db/schema';
import { notFoundOrForeign } from '../errors';
import type { Scope } from '../services/workspace-resources';
import { sourceRow } from './sources';

/**
 * GBI sessions are the caller's own: listed, renamed and deleted only by the user who made them, in
 * the workspace they were made in. Another user's session answers VALIDATION-1000 like a missing one.
 */

type SessionRow = typeof gbiSessions.$inferSelect;
type MessageRow = typeof gbiMessages.$inferSelect;

export const DEFAULT_SESSION_NAME = 'New session';

const toSession = (r: SessionRow): GbiSession => ({ id: r.id, name: r.name, source_id: r.sourceId, created_at: r.createdAt.toISOString(), updated_at: r.updatedAt.toISOString() });

export const toMessage = (r: MessageRow): GbiMessage => ({
  id: r.id,
  session_id: r.sessionId,
  source_id: r.sourceId,
  question: r.question,
  sql: r.sql,
  status: r.status,
  answer: r.answer,
  result: (r.result as GbiMessage['result']) ?? null,
  chart: (r.chart as GbiMessage['chart']) ?? null,
  error: (r.error as GbiMessage['error']) ?? null,
  created_at: r.createdAt.toISOString(),
});

export async function sessionRow(ctx: ServerContext, s: Scope, id: string): Promise<SessionRow> {
  if (!UUID_RE.test(id)) throw notFoundOrForeign('GBI session', id);
  const [row] = await ctx.db
    .select()
    .from(gbiSessions)
    .where(and(eq(gbiSessions.id, id), eq(gbiSessions.userId, s.caller.userId), eq(gbiSessions.tenantId, s.caller.tenantId), eq(gbiSessions.workspaceId, s.workspaceId)));
  if (!row) throw notFoundOrForeign('GBI session', id);
  return row;
}

export async function listSessions(ctx: ServerContext, s: Scope): Promise<GbiSession[]> {
  await requireMembership(ctx.db, s.caller, s.workspaceId);
  const rows = await ctx.db
    .select()
    .from(gbiSessions)
    .where(and(eq(gbiSessions.userId, s.caller.userId), eq(gbiSessions.tenantId, s.caller.tenantId), eq(gbiSessions.workspaceId, s.workspaceId)))
    .orderBy(desc(gbiSessions.updatedAt))
    .limit(200);
  return rows.map(toSession);
}

export async function createSession(ctx: ServerContext, s: Scope, input: { name?: string; source_id?: string }): Promise<GbiSession> {
  await requireMembership(ctx.db, s.caller, s.workspaceId);
  const sourceId = input.source_id ? (await sourceRow(ctx, s, input.source_id)).id : null;
  const [row] = await ctx.db
    .insert(gbiSessions)
    .values({ id: randomUUID(), tenantId: s.caller.tenantId, workspaceId: s.workspaceId, userId: s.caller.userId, sourceId, name: input.name ?? DEFAULT_SESSION_NAME })
    .returning();
  return toSession(row);
}

export async function renameSession(ctx: ServerContext, s: Scope, id: string, name: string): Promise<GbiSession> {
  await requireMembership(ctx.db, s.caller, s.workspaceId);
  const row = await sessionRow(ctx, s, id);
  const [updated] = await ctx.db.update(gbiSessions).set({ name, updatedAt: new Date() }).where(eq(gbiSessions.id, row.id)).returning();
  return toSession(updated);
}

export async function deleteSession(ctx: ServerContext, s: Scope, id: string): Promise<void> {
  await requireMembership(ctx.db, s.caller, s.workspaceId);
  const row = await sessionRow(ctx, s, id);
  await ctx.db.delete(gbiSessions).where(eq(gbiSessions.id, row.id));
}

export async function listMessages(ctx: ServerContext, s: Scope, id: string): Promise<GbiMessage[]> {
  await requireMembership(ctx.db, s.caller, s.workspaceId);
  const row = await sessionRow(ctx, s, id);
  const rows = await ctx.db.select().from(gbiMessages).where(eq(gbiMessages.sessionId, row.id)).orderBy(asc(gbiMessages.createdAt)).limit(500);
  return rows.map(toMessage);
}
