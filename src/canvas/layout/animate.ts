import type { Position } from '../../../schemas/flow';

export interface AnimateOptions {
  /** Default 250 ms. */
  durationMs?: number;
  /** Progress 0…1 → eased 0…1 (default ease-out cubic: fast start, soft landing). */
  easing?: (t: number) => number;
  /** Injected for tests; default `requestAnimationFrame` / `cancelAnimationFrame` / `performance.now`. */
  requestFrame?: (cb: (time: number) => void) => number;
  cancelFrame?: (handle: number) => void;
  now?: () => number;
}

/** A running tween. */
export interface PositionAnimation {
  /** Resolves after the last frame (also when cancelled). */
  finished: Promise<void>;
  /** Stops where it is; no further frames. */
  cancel(): void;
}

export const easeOutCubic = (t: number) => 1 - (1 - t) ** 3;

/**
 * Tweens node positions from `from` to `to` over ~250 ms, calling `onFrame` with every node's
 * position at each animation frame (the view moves its React Flow nodes with them, without
 * touching the document); the last frame is exactly `to`. Nodes missing from `from` appear at
 * their target. The layout command then writes `to` into the document as one undo step.
 *
 * @example
 * const { positions } = await layout(doc, {});
 * const anim = animatePositions(currentPositions, positions, (p) => setViewPositions(p));
 * await anim.finished;
 */
export function animatePositions(
  from: Readonly<Record<string, Position>>,
  to: Readonly<Record<string, Position>>,
  onFrame: (positions: Record<string, Position>, progress: number) => void,
  opts: AnimateOptions = {},
): PositionAnimation {
  const duration = opts.durationMs ?? 250;
  const ease = opts.easing ?? easeOutCubic;
  const requestFrame = opts.requestFrame ?? ((cb) => requestAnimationFrame(cb));
  const cancelFrame = opts.cancelFrame ?? ((h) => cancelAnimationFrame(h));
  const now = opts.now ?? (() => performance.now());
  const ids = Object.keys(to);
  let handle: number | undefined;
  let done = false;
  let resolve!: () => void;
  const finished = new Promise<void>((r) => (resolve = r));

  const finish = () => {
    done = true;
    resolve();
  };
  const frame = (t: number) => {
    const e = ease(t);
    const out: Record<string, Position> = {};
    for (const id of ids) {
      const a = from[id] ?? to[id];
      const b = to[id];
      out[id] = t >= 1 ? { x: b.x, y: b.y } : { x: a.x + (b.x - a.x) * e, y: a.y + (b.y - a.y) * e };
    }
    onFrame(out, t);
  };

  if (duration <= 0 || !ids.length) {
    frame(1);
    finish();
    return { finished, cancel: () => undefined };
  }
  const start = now();
  const tick = () => {
    if (done) return;
    const t = Math.min(1, (now() - start) / duration);
    frame(t);
    if (t >= 1) finish();
    else handle = requestFrame(tick);
  };
  handle = requestFrame(tick);
  return {
    finished,
    cancel() {
      if (done) return;
      if (handle !== undefined) cancelFrame(handle);
      finish();
    },
  };
}
