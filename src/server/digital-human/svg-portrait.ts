/**
 * SVG portraits drawn into PNGs (issue 31): the icon rules take SVG, but the video encoder reads
 * raster images only, so a character given an SVG portrait gets a PNG of it instead (characters.ts),
 * drawn once when the portrait is set: every render and the portal's avatar then use the PNG, and a
 * drawing that fails is told to the person setting the portrait, not found later by a background render.
 *
 * resvg runs on a worker thread of its own (./svg-worker.mjs: what an SVG may not reach or take is
 * described there), loaded on the first SVG portrait and stopped when idle. One drawing at a time, so
 * that each one's time limit counts its own drawing: a drawing over the limit ends the worker (a
 * synchronous draw cannot be interrupted), and the next one starts a fresh one.
 */
import { ErrorCode } from '../../../schemas/errors';
import { AppError } from '../errors';
import { lazyWorker } from '../lazy-worker';

const WORKER_URL = new URL('./svg-worker.mjs', import.meta.url);
const IDLE_MS = 10_000;

/** The PNG's long side: sharp in the portal's avatar, and above the video's 480 px. */
export const PORTRAIT_RASTER_SIZE = 1024;
/** The short side's least size once drawn (so at most 64:1): a thinner picture is a line, not a portrait. */
export const PORTRAIT_MIN_SIDE = 16;
/** A drawing's time limit: a plain portrait takes well under a second, a pathological filter tens. */
export const SVG_DRAW_TIMEOUT_MS = 10_000;

const pool = lazyWorker(WORKER_URL, { idleMs: IDLE_MS });
let queue: Promise<unknown> = Promise.resolve();

export interface RasterPortrait {
  png: Buffer;
  width: number;
  height: number;
}

const field = [{ path: 'body/portrait_file_id', message: 'svg' }];
const unreadable = (why: string) => new AppError(400, ErrorCode.DH_SVG_UNREADABLE, `The SVG portrait could not be drawn: ${why}`, field);
const overLimits = (why: string) => new AppError(400, ErrorCode.DH_SVG_LIMITS, `The SVG portrait is too large or too complex to draw: ${why}`, field);

async function drawNow(svg: Buffer, timeoutMs: number): Promise<RasterPortrait> {
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    pool.restart('time limit');
  }, timeoutMs);
  try {
    // A copy of its own, handed over to the worker rather than copied again.
    const bytes = new Uint8Array(svg);
    const m = await pool.call({ svg: bytes, size: PORTRAIT_RASTER_SIZE, minSide: PORTRAIT_MIN_SIDE }, { transfer: [bytes.buffer] });
    if (m.trapped) pool.restart('trapped');
    if (m.failure === 'limits') throw overLimits(String(m.message));
    if (m.failure) throw unreadable(String(m.message));
    return { png: Buffer.from(m.png as Uint8Array), width: Number(m.width), height: Number(m.height) };
  } catch (e) {
    if (timedOut) throw overLimits(`not drawn within ${timeoutMs / 1000} s`);
    throw e;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Draws an SVG into a PNG of {@link PORTRAIT_RASTER_SIZE} px on its long side, its aspect kept and
 * its transparency too. DH-1051 when it cannot be read, DH-1052 when it is out of bounds (too thin,
 * over the worker's memory cap, over the time limit).
 */
export function rasterisePortrait(svg: Buffer, opts: { timeoutMs?: number } = {}): Promise<RasterPortrait> {
  const run = queue.then(() => drawNow(svg, opts.timeoutMs ?? SVG_DRAW_TIMEOUT_MS));
  queue = run.catch(() => undefined);
  return run;
}

/** Whether the SVG worker runs now (the memory report, tests). */
export const svgWorkerRunning = (): boolean => pool.running();
