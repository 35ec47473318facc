/**
 * The background renders of broadcast videos, kept in the broadcasts table like the knowledge tasks
 * are in theirs (knowledge/queue.ts): any server process on the database claims the oldest queued
 * broadcast (`FOR UPDATE SKIP LOCKED`) and holds it by a lease it renews while it works, so a render
 * whose process died is taken again; `progress` (0–100) is written as it goes and read by the page's
 * polling. At most RENDER_CONCURRENCY renders run in a process (ffmpeg and the frame drawing each
 * keep a core busy). A broadcast edited or deleted meanwhile is noticed at the next renewal: the
 * render stops and its file is thrown away.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { and, asc, eq, lt, or, sql } from 'drizzle-orm';
import type { ServerContext } from '../context';
import { broadcasts, characters, digitalHumanApps, files } from '../db/schema';
import { fileBytes } from '../services/files';
import { synthesize } from '../speech';
import { lookOf } from './characters';
import { renderBroadcast, type SpeechPart } from './render';
import { sentences } from './subtitles';
import { removeVideo, videoKeyOf, videoPath, workDirOf } from './video-store';

export const RENDER_CONCURRENCY = 1;
const LEASE_MS = 30_000;
/** Other processes' work is looked for this often on a shared server; the embedded database has no other process. */
const POLL_MS = 5_000;
const MAX_ATTEMPTS = 3;

type Row = typeof broadcasts.$inferSelect;

class Superseded extends Error {}
class Shutdown extends Error {}

const workers = new WeakMap<object, Set<RenderWorker>>();

export interface RenderWorker {
  nudge(): void;
  stop(): Promise<void>;
}

/** Wakes this process's renderers (a broadcast was queued). */
export function nudgeRenderers(ctx: Pick<ServerContext, 'db'>): void {
  for (const w of workers.get(ctx.db) ?? []) w.nudge();
}

async function claim(ctx: ServerContext): Promise<Row | null> {
  return ctx.db.transaction(async (tx) => {
    const [next] = await tx
      .select({ id: broadcasts.id })
      .from(broadcasts)
      .where(or(eq(broadcasts.state, 'queued'), and(eq(broadcasts.state, 'running'), lt(broadcasts.lockedUntil, sql`now()`))))
      .orderBy(asc(broadcasts.createdAt))
      .limit(1)
      .for('update', { skipLocked: true });
    if (!next) return null;
    const [row] = await tx
      .update(broadcasts)
      .set({ state: 'running', progress: 0, error: null, lockedUntil: sql`now() + ${`${LEASE_MS} milliseconds`}::interval`, attempts: sql`${broadcasts.attempts} + 1`, updatedAt: new Date() })
      .where(eq(broadcasts.id, next.id))
      .returning();
    return row ?? null;
  });
}

/** Renews the lease and writes the progress; false when the broadcast was edited or deleted meanwhile. */
async function heartbeat(ctx: ServerContext, row: Row, progress?: number): Promise<boolean> {
  const done = await ctx.db
    .update(broadcasts)
    .set({ lockedUntil: sql`now() + ${`${LEASE_MS} milliseconds`}::interval`, ...(progress !== undefined ? { progress } : {}) })
    .where(and(eq(broadcasts.id, row.id), eq(broadcasts.generation, row.generation), eq(broadcasts.state, 'running')))
    .returning({ id: broadcasts.id });
  return done.length > 0;
}

const languageOf = (text: string) => (/[\u3400-\u9fff]/.test(text) ? 'zh' : 'en');

async function render(ctx: ServerContext, row: Row, outer: AbortSignal): Promise<void> {
  // Stopped by the worker (shutdown) or by a heartbeat that finds the broadcast edited or deleted.
  const inner = new AbortController();
  const signal = inner.signal;
  const onOuter = () => inner.abort(outer.reason);
  if (outer.aborted) onOuter();
  outer.addEventListener('abort', onOuter, { once: true });
  try {
    await renderRow(ctx, row, signal, inner);
  } catch (e) {
    throw signal.aborted && signal.reason instanceof Superseded ? signal.reason : e;
  } finally {
    outer.removeEventListener('abort', onOuter);
  }
}

async function renderRow(ctx: ServerContext, row: Row, signal: AbortSignal, inner: AbortController): Promise<void> {
  const [dh] = await ctx.db
    .select({ c: characters })
    .from(digitalHumanApps)
    .innerJoin(characters, eq(characters.id, digitalHumanApps.characterId))
    .where(eq(digitalHumanApps.appId, row.appId));
  const lookId = dh ? await lookOf(ctx, dh.c.id) : null;
  if (!dh || !lookId) throw new Error('The app has no character with a portrait or idle clip');
  const [look] = await ctx.db.select().from(files).where(eq(files.id, lookId));
  if (!look) throw new Error('The character\'s portrait is missing');
  const language = languageOf(row.script);
  const parts: SpeechPart[] = [];
  const list = sentences(row.script);
  let lastBeat = Date.now();
  const beat = async (progress: number) => {
    if (Date.now() - lastBeat < 500) return;
    lastBeat = Date.now();
    if (!(await heartbeat(ctx, row, progress))) {
      inner.abort(new Superseded());
      throw new Superseded();
    }
  };
  for (const [i, text] of list.entries()) {
    signal.throwIfAborted();
    const spoken = await synthesize(ctx, row.tenantId, { voice: dh.c.voice, text, language, signal });
    parts.push({ text, bytes: spoken.audio, mime: spoken.mime });
    await beat(Math.round(((i + 1) / list.length) * 30));
  }
  const key = videoKeyOf(row.tenantId, row.id, row.generation);
  const out = videoPath(ctx.settings, key);
  await fs.mkdir(path.dirname(out), { recursive: true });
  const work = await workDirOf(ctx.settings, row.id, row.generation);
  let pending: Promise<void> = Promise.resolve();
  try {
    const result = await renderBroadcast({
      workDir: work,
      look: { bytes: await fileBytes(ctx, look), name: look.name },
      speech: parts,
      language: language === 'zh' ? 'chi' : 'eng',
      outFile: out,
      signal,
      onProgress: (f) => {
        // Superseded: the heartbeat has aborted the render already.
        pending = pending.then(() => beat(30 + Math.round(f * 65))).catch(() => undefined);
      },
    });
    await pending;
    // Done only if the broadcast is still this generation; the old video is replaced.
    const [before] = await ctx.db.select({ key: broadcasts.videoKey }).from(broadcasts).where(eq(broadcasts.id, row.id));
    const updated = await ctx.db
      .update(broadcasts)
      .set({ state: 'done', progress: 100, videoKey: key, subtitles: result.vtt, duration: result.duration, size: result.bytes, lockedUntil: null, finishedAt: new Date(), updatedAt: new Date() })
      .where(and(eq(broadcasts.id, row.id), eq(broadcasts.generation, row.generation), eq(broadcasts.state, 'running')))
      .returning({ id: broadcasts.id });
    if (!updated.length) {
      await removeVideo(ctx.settings, key);
      return;
    }
    if (before?.key && before.key !== key) await removeVideo(ctx.settings, before.key);
  } catch (e) {
    await removeVideo(ctx.settings, key).catch(() => undefined);
    throw e;
  } finally {
    await fs.rm(work, { recursive: true, force: true });
  }
}

async function fail(ctx: ServerContext, row: Row, message: string) {
  await ctx.db
    .update(broadcasts)
    .set({ state: 'failed', error: message.slice(0, 1000), lockedUntil: null, finishedAt: new Date(), updatedAt: new Date() })
    .where(and(eq(broadcasts.id, row.id), eq(broadcasts.generation, row.generation)));
}

/** Starts this process's renderer; `stop` hands running renders back to the queue. */
export function startRenderWorker(ctx: ServerContext, opts: { kind: 'pglite' | 'postgres' | string; log: (e: unknown) => void }): RenderWorker {
  const running = new Map<string, { controller: AbortController; done: Promise<void> }>();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let ticking: Promise<void> | null = null;
  let again = false;

  function run(row: Row) {
    const controller = new AbortController();
    const done = (async () => {
      try {
        await render(ctx, row, controller.signal);
      } catch (e) {
        const reason = controller.signal.aborted ? controller.signal.reason : e;
        if (reason instanceof Superseded || e instanceof Superseded) return;
        if (reason instanceof Shutdown) {
          await ctx.db.update(broadcasts).set({ state: 'queued', lockedUntil: null, progress: 0 }).where(and(eq(broadcasts.id, row.id), eq(broadcasts.generation, row.generation), eq(broadcasts.state, 'running'))).catch(opts.log);
          return;
        }
        const message = e instanceof Error ? e.message : String(e);
        opts.log(e);
        await fail(ctx, row, row.attempts >= MAX_ATTEMPTS ? `${message} (after ${row.attempts} attempts)` : message).catch(opts.log);
      }
    })().finally(() => {
      running.delete(row.id);
      if (!stopped) schedule(0);
    });
    running.set(row.id, { controller, done });
  }

  async function tick() {
    while (!stopped && running.size < RENDER_CONCURRENCY) {
      const row = await claim(ctx);
      if (!row) break;
      run(row);
    }
  }

  function schedule(ms: number) {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      if (ticking) {
        again = true;
        return;
      }
      ticking = tick()
        .catch(opts.log)
        .finally(() => {
          ticking = null;
          if (again) {
            again = false;
            schedule(0);
          } else if (opts.kind !== 'pglite' || running.size) schedule(POLL_MS);
        });
    }, ms);
    timer.unref?.();
  }

  // The embedded database has one process: a render it left running is taken again now.
  const orphans =
    opts.kind === 'pglite'
      ? ctx.db.update(broadcasts).set({ state: 'queued', lockedUntil: null }).where(eq(broadcasts.state, 'running')).then(() => undefined, opts.log)
      : Promise.resolve();

  const worker: RenderWorker = {
    nudge: () => schedule(0),
    async stop() {
      if (stopped) return;
      stopped = true;
      if (timer) clearTimeout(timer);
      await ticking?.catch(() => undefined);
      for (const r of running.values()) r.controller.abort(new Shutdown());
      await Promise.all([...running.values()].map((r) => r.done.catch(() => undefined)));
      workers.get(ctx.db)?.delete(worker);
    },
  };
  let set = workers.get(ctx.db);
  if (!set) workers.set(ctx.db, (set = new Set()));
  set.add(worker);
  void orphans.then(() => schedule(0));
  return worker;
}
