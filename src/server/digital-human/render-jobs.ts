/**
 * The background renders of broadcast videos on the job queue (pg-boss, src/server/jobs), on the same
 * leased-job runner as the knowledge tasks (jobs/leased): the broadcasts table stays the record the
 * page reads (state, progress, error); each render is one job of the `broadcast-render` queue, sent in the transaction that queues the
 * broadcast, with its id and generation. Any process that takes jobs renders it:
 *
 * - it renews the job's lease every second and writes the progress (0–100), which also notices a
 *   broadcast edited (its generation moved on: a newer job renders it) or deleted: the render stops
 *   and its file is thrown away;
 * - a render's own failure ends the broadcast `failed` (not retried: the message is shown);
 * - the server stops → the broadcast goes back to `queued` and the job is failed into a retry;
 * - a process that dies stops renewing: pg-boss's maintenance (any process; the embedded database's
 *   next start at once) retries the job, up to RENDER_ATTEMPTS starts, then `broadcast-dead` fails it.
 *
 * At most `WEFT_RENDER_CONCURRENCY` renders run in a process (ffmpeg and the frames thread each keep
 * a core busy).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { ServerContext } from '../context';
import { broadcasts, characters, digitalHumanApps, files } from '../db/schema';
import { jobsOf, type Jobs } from '../jobs/boss';
import { consumeLeased } from '../jobs/leased';
import { RENDER_ATTEMPTS, RENDER_QUEUE } from '../jobs/queues';
import { fileBytes } from '../services/files';
import type { Tx } from '../services/workspace-resources';
import { synthesize } from '../speech';
import { lookOf } from './characters';
import { renderBroadcast, type SpeechPart } from './render';
import { sentences } from './subtitles';
import { removeVideo, videoKeyOf, videoPath, workDirOf } from './video-store';

type Row = typeof broadcasts.$inferSelect;

interface RenderJobData {
  broadcastId: string;
  generation: number;
}

/** A render under way: its row, the progress the next renewal writes, and the video once rendered. */
interface Render {
  row: Row;
  progress: number;
  video?: Awaited<ReturnType<typeof renderRow>>;
}

/** Queues a render of the broadcast's generation, in `tx` (the one that queued the broadcast) when given. */
export async function queueRender(ctx: Pick<ServerContext, 'db'>, row: Pick<Row, 'id' | 'generation'>, tx?: Tx): Promise<void> {
  const jobs = jobsOf(ctx.db);
  if (!jobs) throw new Error('The job queue is not running on this database');
  const data: RenderJobData = { broadcastId: row.id, generation: row.generation };
  await jobs.send(RENDER_QUEUE, data, {}, tx);
}

/** Wakes this process's renderers (after the transaction that queued a render commits). */
export function nudgeRenderers(ctx: Pick<ServerContext, 'db'>): void {
  jobsOf(ctx.db)?.nudge(RENDER_QUEUE);
}

const languageOf = (text: string) => (/[\u3400-\u9fff]/.test(text) ? 'zh' : 'en');

/** Renders the row's script into its generation's video; `progress` gets 0–100. Throws when `signal` aborts. */
async function renderRow(ctx: ServerContext, row: Row, signal: AbortSignal, progress: (p: number) => void): Promise<{ key: string; vtt: string; duration: number; bytes: number }> {
  const [dh] = await ctx.db
    .select({ c: characters })
    .from(digitalHumanApps)
    .innerJoin(characters, eq(characters.id, digitalHumanApps.characterId))
    .where(eq(digitalHumanApps.appId, row.appId));
  const lookId = dh ? await lookOf(ctx, dh.c.id) : null;
  if (!dh || !lookId) throw new Error('The app has no character with a portrait or idle clip');
  const [look] = await ctx.db.select().from(files).where(eq(files.id, lookId));
  if (!look) throw new Error("The character's portrait is missing");
  const language = languageOf(row.script);
  const parts: SpeechPart[] = [];
  const list = sentences(row.script);
  for (const [i, text] of list.entries()) {
    signal.throwIfAborted();
    const spoken = await synthesize(ctx, row.tenantId, { voice: dh.c.voice, text, language, signal });
    parts.push({ text, bytes: spoken.audio, mime: spoken.mime });
    progress(Math.round(((i + 1) / list.length) * 30));
  }
  const key = videoKeyOf(row.tenantId, row.id, row.generation);
  const out = videoPath(ctx.settings, key);
  await fs.mkdir(path.dirname(out), { recursive: true });
  const work = await workDirOf(ctx.settings, row.id, row.generation);
  try {
    const result = await renderBroadcast({
      workDir: work,
      look: { bytes: await fileBytes(ctx, look), name: look.name, kind: look.mimeType.startsWith('video/') ? 'clip' : 'portrait' },
      speech: parts,
      language: language === 'zh' ? 'chi' : 'eng',
      outFile: out,
      signal,
      onProgress: (f) => progress(30 + Math.round(f * 65)),
    });
    return { key, vtt: result.vtt, duration: result.duration, bytes: result.bytes };
  } catch (e) {
    await removeVideo(ctx.settings, key).catch(() => undefined);
    throw e;
  } finally {
    await fs.rm(work, { recursive: true, force: true });
  }
}

/** Registers this process's renderer (the consumer of `broadcast-render`) and the dead-letter worker. */
export function startRenderWorkers(ctx: ServerContext, jobs: Jobs, opts: { concurrency: number; log: (e: unknown) => void }): void {
  const { log } = opts;
  const current = (row: Row) => and(eq(broadcasts.id, row.id), eq(broadcasts.generation, row.generation), eq(broadcasts.state, 'running'));

  consumeLeased<Render>(
    jobs,
    {
      queues: [RENDER_QUEUE],
      concurrency: opts.concurrency,
      log,
      // Renders whose processes kept dying: their broadcasts fail (unless edited or ended meanwhile).
      deadLetter: {
        queue: 'broadcast-dead',
        async dead(job) {
          const { broadcastId, generation } = job.data as unknown as RenderJobData;
          await ctx.db
            .update(broadcasts)
            .set({ state: 'failed', error: 'The server stopped too many times while rendering this video', finishedAt: new Date(), updatedAt: new Date() })
            .where(and(eq(broadcasts.id, broadcastId), eq(broadcasts.generation, generation), inArray(broadcasts.state, ['queued', 'running'])));
        },
      },
    },
    {
      async claim(job) {
        const { broadcastId, generation } = job.data as unknown as RenderJobData;
        const [row] = await ctx.db
          .update(broadcasts)
          .set({ state: 'running', progress: 0, error: null, attempts: sql`${broadcasts.attempts} + 1`, updatedAt: new Date() })
          .where(and(eq(broadcasts.id, broadcastId), eq(broadcasts.generation, generation), inArray(broadcasts.state, ['queued', 'running'])))
          .returning();
        // Deleted, edited since (a newer job renders it) or already ended: nothing to do.
        return row ? { row, progress: 0 } : null;
      },
      // The progress goes in with each renewal, which also notices an edit (a newer job renders it) or a deletion.
      async heartbeat(r) {
        const still = await ctx.db.update(broadcasts).set({ progress: r.progress }).where(current(r.row)).returning({ id: broadcasts.id });
        return still.length ? undefined : 'stop';
      },
      async work(r, signal) {
        r.video = await renderRow(ctx, r.row, signal, (p) => void (r.progress = p));
      },
      // Done only if the broadcast is still this generation; the old video is replaced.
      async done({ row, video }) {
        const [before] = await ctx.db.select({ key: broadcasts.videoKey }).from(broadcasts).where(eq(broadcasts.id, row.id));
        const updated = await ctx.db
          .update(broadcasts)
          .set({ state: 'done', progress: 100, videoKey: video!.key, subtitles: video!.vtt, duration: video!.duration, size: video!.bytes, finishedAt: new Date(), updatedAt: new Date() })
          .where(current(row))
          .returning({ id: broadcasts.id });
        if (!updated.length) await removeVideo(ctx.settings, video!.key);
        else if (before?.key && before.key !== video!.key) await removeVideo(ctx.settings, before.key);
        return 'complete';
      },
      // A render's own failure is not retried: the message is shown.
      async failed({ row }, e) {
        log(e);
        const message = e instanceof Error ? e.message : String(e);
        await ctx.db
          .update(broadcasts)
          .set({ state: 'failed', error: (row.attempts > 1 ? `${message} (attempt ${row.attempts} of ${RENDER_ATTEMPTS})` : message).slice(0, 1000), finishedAt: new Date(), updatedAt: new Date() })
          .where(current(row))
          .catch(log);
        return 'complete';
      },
      // Edited or deleted: the newer job (if any) renders it.
      stopped: async () => 'complete',
      async released({ row }) {
        await ctx.db.update(broadcasts).set({ state: 'queued', progress: 0 }).where(current(row)).catch(log);
        return 'retry';
      },
      label: ({ row }) => `broadcast render ${row.id}`,
    },
  );
}
