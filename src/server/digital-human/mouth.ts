/**
 * The speaking face, drawn in Node over the portrait: the audio's loudness per video frame opens the
 * mouth. Pure functions over raw RGB (rgb24) buffers; render.ts pipes the frames into ffmpeg.
 *
 * Why this way: no face detector or neural renderer installs here offline, and a portrait is framed
 * by convention (face centred, mouth about two thirds down). The jaw below the mouth line is pulled
 * down by the level (a smooth bump across the face, so the chin moves and the cheeks do not) and the
 * gap it leaves is the open mouth, dark with a lip edge. Levels are RMS per frame with a fast attack
 * and a slower release, so syllables read as openings and the mouth does not flicker.
 */

export interface FaceBox {
  /** Centre of the mouth and the jaw's half width and depth, as fractions of the frame. */
  mouthX: number;
  mouthY: number;
  halfWidth: number;
  jawDepth: number;
  /** The widest opening, as a fraction of the frame height. */
  maxOpen: number;
}

export const PORTRAIT_FACE: FaceBox = { mouthX: 0.5, mouthY: 0.66, halfWidth: 0.13, jawDepth: 0.22, maxOpen: 0.045 };

/** Loudness 0..1 of each video frame from mono 16-bit PCM. */
export function frameLevels(pcm: Int16Array, sampleRate: number, fps: number, frames: number): Float32Array {
  const raw = new Float32Array(frames);
  const per = sampleRate / fps;
  let peak = 0;
  for (let f = 0; f < frames; f++) {
    const from = Math.floor(f * per);
    const to = Math.min(pcm.length, Math.floor((f + 1) * per));
    let sum = 0;
    for (let i = from; i < to; i++) sum += pcm[i]! * pcm[i]!;
    const rms = to > from ? Math.sqrt(sum / (to - from)) / 32768 : 0;
    raw[f] = rms;
    if (rms > peak) peak = rms;
  }
  // Normalised to the clip's loudest frame (a quiet voice still opens the mouth), with a noise floor.
  const floor = peak * 0.08;
  const out = new Float32Array(frames);
  let prev = 0;
  for (let f = 0; f < frames; f++) {
    const target = peak > 0 ? Math.max(0, (raw[f]! - floor) / (peak - floor)) : 0;
    const v = target > prev ? prev + (target - prev) * 0.7 : prev + (target - prev) * 0.35;
    out[f] = Math.min(1, Math.sqrt(v) * 1.0);
    prev = v;
  }
  return out;
}

/**
 * Draws one frame: `base` (the portrait, rgb24, w × h) with the jaw opened by `level` (0..1), into
 * `out` (same size). Rows above the mouth are copied as they are.
 */
export function drawFrame(base: Buffer, out: Buffer, w: number, h: number, level: number, face: FaceBox = PORTRAIT_FACE): void {
  base.copy(out);
  const open = level * face.maxOpen * h;
  if (open < 0.5) return;
  const cx = face.mouthX * w;
  const half = face.halfWidth * w;
  const top = Math.round(face.mouthY * h);
  const bottom = Math.min(h, Math.round((face.mouthY + face.jawDepth) * h));
  const x0 = Math.max(0, Math.floor(cx - half));
  const x1 = Math.min(w, Math.ceil(cx + half));
  for (let x = x0; x < x1; x++) {
    // A smooth bump across the jaw: 1 at the centre, 0 at its edges.
    const u = (x - cx) / half;
    const across = Math.max(0, 1 - u * u);
    const shiftAt = open * across;
    if (shiftAt < 0.5) continue;
    const lip = Math.max(1, Math.round(shiftAt * 0.25));
    for (let y = top; y < bottom; y++) {
      // The shift fades out towards the jaw's bottom, so the chin stretches rather than tears.
      const down = shiftAt * (1 - (y - top) / (bottom - top)) ** 0.5;
      const o = (y * w + x) * 3;
      if (y - top < down) {
        // Inside the opened mouth: dark, with a reddish lip line at its edges.
        const edge = y - top < lip || down - (y - top) < lip;
        out[o] = edge ? 120 : 40;
        out[o + 1] = edge ? 50 : 12;
        out[o + 2] = edge ? 55 : 16;
        continue;
      }
      const sy = Math.max(top, Math.round(y - down));
      const so = (sy * w + x) * 3;
      out[o] = base[so]!;
      out[o + 1] = base[so + 1]!;
      out[o + 2] = base[so + 2]!;
    }
  }
}
