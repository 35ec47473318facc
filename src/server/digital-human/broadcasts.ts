import { randomUUID } from 'node:crypto';
import { and, desc, eq, sql } from 'drizzle-orm';
import { countWords, type Broadcast, type BroadcastCreateBody, type BroadcastUpdateBody } from '../../../schemas/digital-human';
import { ErrorCode } from '../../../schemas/errors';
import type { ServerContext } from '../context';
import { requireMembership, UUID_RE } from '../context';
import { broadcasts } from '../db/schema';
import { AppError, notFoundOrForeign } from '../errors';
import { BUILDERS } from '../services/apps';
import { nothingToChange, page, type Scope } from '../services/workspace-resources';
import { appAndRow } from './apps';
import { lookOf } from './characters';
import { nudgeRenderers, queueRender } from './render-jobs';
import { removeVideo } from './video-store';

/**
 * Broadcast videos of a broadcast app (issue 31): a title and a script (required, at most 1000
 * words: DH-1000 from the schema), rendered in the background (render-jobs.ts, on the job queue) with its state and
 * progress; the MP4 and its WebVTT subtitles once done. Editing the script renders it again and the
 * new video replaces the old one when it is done. Any member reads; builders write.
 */

type Row = typeof broadcasts.$inferSelect;

export function toBroadcast(r: Row): Broadcast {
  return {
    id: r.id,
    app_id: r.appId,
    title: r.title,
    script: r.script,
    words: countWords(r.script),
    state: r.state,
    progress: r.progress,
    error: r.error,
    duration: r.state === 'done' ? r.duration : null,
    size: r.state === 'done' ? r.size : null,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
    finished_at: r.finishedAt?.toISOString() ?? null,
  };
}

/** The broadcast app in scope: a broadcast digital human with a character that has a look (DH-1002 otherwise). */
async function broadcastApp(ctx: ServerContext, s: Scope, appId: string, forWrite: boolean) {
  await requireMembership(ctx.db, s.caller, s.workspaceId, forWrite ? BUILDERS : undefined);
  const { app, row } = await appAndRow(ctx, s, appId);
  if (!row || row.kind !== 'broadcast') {
    throw new AppError(400, ErrorCode.DH_KIND_MISMATCH, 'This app is not a broadcast digital human', { kind: row?.kind ?? null });
  }
  return { app, row };
}

async function requireLook(ctx: ServerContext, characterId: string | null) {
  if (!characterId) throw new AppError(400, ErrorCode.DH_NO_CHARACTER, 'Choose a character with a portrait or an idle clip for this app first');
  if (!(await lookOf(ctx, characterId))) {
    throw new AppError(400, ErrorCode.DH_NO_CHARACTER, 'The character has no portrait (png, jpg, webp, gif or bmp: an SVG cannot be drawn into a video) or idle clip');
  }
}

async function rowOf(ctx: ServerContext, appId: string, id: string): Promise<Row> {
  if (!UUID_RE.test(id)) throw notFoundOrForeign('Broadcast', id);
  const [row] = await ctx.db.select().from(broadcasts).where(and(eq(broadcasts.id, id), eq(broadcasts.appId, appId)));
  if (!row) throw notFoundOrForeign('Broadcast', id);
  return row;
}

export async function listBroadcasts(ctx: ServerContext, s: Scope, appId: string, q: { page: number; page_size: number }) {
  const { app } = await broadcastApp(ctx, s, appId, false);
  const where = eq(broadcasts.appId, app.id);
  const [{ total }] = await ctx.db.select({ total: sql<number>`count(*)::int` }).from(broadcasts).where(where);
  const rows = await ctx.db
    .select()
    .from(broadcasts)
    .where(where)
    .orderBy(desc(broadcasts.createdAt), desc(broadcasts.id))
    .limit(q.page_size)
    .offset((q.page - 1) * q.page_size);
  return page(rows.map(toBroadcast), total, q);
}

export async function getBroadcast(ctx: ServerContext, s: Scope, appId: string, id: string): Promise<Row> {
  const { app } = await broadcastApp(ctx, s, appId, false);
  return rowOf(ctx, app.id, id);
}

export async function createBroadcast(ctx: ServerContext, s: Scope, appId: string, body: BroadcastCreateBody): Promise<Broadcast> {
  const { app, row: dh } = await broadcastApp(ctx, s, appId, true);
  await requireLook(ctx, dh.characterId);
  // The render's job goes in with the row: a broadcast is queued exactly when its job is.
  const row = await ctx.db.transaction(async (tx) => {
    const [r] = await tx
      .insert(broadcasts)
      .values({ id: randomUUID(), tenantId: s.caller.tenantId, appId: app.id, title: body.title, script: body.script, state: 'queued', createdBy: s.caller.userId, createdAt: sql`clock_timestamp()` })
      .returning();
    await queueRender(ctx, r!, tx);
    return r;
  });
  nudgeRenderers(ctx);
  return toBroadcast(row!);
}

/**
 * A changed title alone changes the title. A changed script (or `regenerate`) queues a new render:
 * the generation moves on, so a render still running for the old script is thrown away when it
 * ends; the old video is served until the new one replaces it.
 */
export async function updateBroadcast(ctx: ServerContext, s: Scope, appId: string, id: string, body: BroadcastUpdateBody, regenerate = false): Promise<Broadcast> {
  const { app, row: dh } = await broadcastApp(ctx, s, appId, true);
  const row = await rowOf(ctx, app.id, id);
  if (!regenerate && body.title === undefined && body.script === undefined) throw nothingToChange();
  const rerender = regenerate || (body.script !== undefined && body.script !== row.script);
  if (rerender) await requireLook(ctx, dh.characterId);
  const next = await ctx.db.transaction(async (tx) => {
    const [r] = await tx
      .update(broadcasts)
      .set({
        title: body.title,
        script: body.script,
        updatedAt: new Date(),
        ...(rerender ? { state: 'queued' as const, progress: 0, error: null, generation: sql`${broadcasts.generation} + 1`, attempts: 0, finishedAt: null } : {}),
      })
      .where(eq(broadcasts.id, row.id))
      .returning();
    if (rerender) await queueRender(ctx, r!, tx);
    return r;
  });
  if (rerender) nudgeRenderers(ctx);
  return toBroadcast(next!);
}

/** Builders: the broadcast and its video go (a render in progress is thrown away when it ends). */
export async function deleteBroadcast(ctx: ServerContext, s: Scope, appId: string, id: string): Promise<void> {
  const { app } = await broadcastApp(ctx, s, appId, true);
  const row = await rowOf(ctx, app.id, id);
  await ctx.db.delete(broadcasts).where(eq(broadcasts.id, row.id));
  await removeVideo(ctx.settings, row.videoKey);
}

/** The rendered video's row for a download (DH-1003 while none is rendered yet). */
export async function videoOf(ctx: ServerContext, s: Scope, appId: string, id: string): Promise<Row & { videoKey: string }> {
  const row = await getBroadcast(ctx, s, appId, id);
  if (!row.videoKey) throw new AppError(409, ErrorCode.DH_BROADCAST_STATE, 'The video is not rendered yet', { state: row.state });
  return row as Row & { videoKey: string };
}
