/**
 * The picture half of a broadcast render, run on the frames worker thread (frames-pool.ts): each
 * frame is the look with the jaw opened by that frame's loudness (mouth.ts), drawn here and piped
 * into ffmpeg as raw RGB with the speech and subtitles. The drawing is a loop over every pixel of the
 * lower face, 25 times a second of video: on the server's main thread it held the event loop for
 * most of a render.
 *
 * The look is a portrait (one still, the same base for every frame) or an idle clip: a second ffmpeg
 * decodes the clip looped (`-stream_loop -1`) at the video's size and rate, and each decoded frame is
 * the base of its frame, so the clip's own motion (breathing, blinking) goes on under the speech. The
 * clip frames stream through (one frame in memory at a time): a 10 MB clip may hold minutes of video.
 */
import { spawn } from 'node:child_process';
import { drawFrame } from './mouth';
import { ffmpegPath, FfmpegError, runFfmpeg } from './ffmpeg';

export interface EncodeJob {
  /** The portrait image or the idle clip, a file of the render's work directory. */
  lookFile: string;
  look: 'portrait' | 'clip';
  speechFile: string;
  subsFile: string;
  outFile: string;
  /** ISO 639-2 code of the subtitles' language. */
  language: string;
  size: number;
  fps: number;
  /** The mouth's opening (0..1) of each frame: as many frames as the video has. */
  levels: Float32Array;
  timeoutMs: number;
}

/** The frames of the look, `size` × `size` rgb24, one per call of `next` (the portrait's every time). */
interface LookFrames {
  next(): Promise<Buffer>;
  close(): void;
}

const fill = (size: number) => `scale=${size}:${size}:force_original_aspect_ratio=increase,crop=${size}:${size}`;

async function portraitFrames(job: EncodeJob, signal: AbortSignal): Promise<LookFrames> {
  const base = await runFfmpeg(['-i', job.lookFile, '-frames:v', '1', '-vf', `${fill(job.size)},format=rgb24`, '-f', 'rawvideo', 'pipe:1'], { timeoutMs: 30_000, signal });
  if (base.length !== job.size * job.size * 3) throw new FfmpegError('The portrait could not be read as an image');
  return { next: async () => base, close: () => undefined };
}

/** The clip decoded by ffmpeg, looped, as frames read off its stdout as they are needed. */
function clipFrames(job: EncodeJob, signal: AbortSignal): LookFrames {
  const bytes = job.size * job.size * 3;
  const child = spawn(
    ffmpegPath(),
    // -stream_loop before its input; every input reads local files only (as ffmpeg.ts's runs).
    ['-hide_banner', '-nostdin', '-stream_loop', '-1', '-protocol_whitelist', 'file,pipe', '-i', job.lookFile, '-an', '-sn', '-vf', `fps=${job.fps},${fill(job.size)},format=rgb24`, '-frames:v', String(job.levels.length), '-f', 'rawvideo', 'pipe:1'],
    { stdio: ['ignore', 'pipe', 'pipe'], env: {} },
  );
  let err = '';
  child.stderr.on('data', (c: Buffer) => (err = (err + c.toString('utf8')).slice(-2000)));
  const kill = () => child.kill('SIGKILL');
  signal.addEventListener('abort', kill, { once: true });
  const reader = child.stdout[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let held: Buffer = Buffer.alloc(0);
  let last: Buffer | null = null;
  return {
    async next() {
      while (held.length < bytes) {
        const r = await reader.next();
        if (r.done) {
          // The clip gave fewer frames than asked (it ended oddly): its last frame stands for the rest.
          if (last) return last;
          throw new FfmpegError(`The idle clip could not be read as a video: ${err.trim().split('\n').slice(-2).join(' | ')}`);
        }
        held = held.length ? Buffer.concat([held, r.value]) : r.value;
      }
      last = Buffer.from(held.subarray(0, bytes));
      held = held.subarray(bytes);
      return last;
    },
    close() {
      signal.removeEventListener('abort', kill);
      if (child.exitCode === null) kill();
    },
  };
}

/** Draws the frames and encodes them with the speech and subtitles into `outFile` (H.264/AAC/mov_text MP4). */
export async function encodeVideo(job: EncodeJob, signal: AbortSignal, onProgress?: (fraction: number) => void): Promise<void> {
  const { size, fps, levels } = job;
  const frames = levels.length;
  const look = job.look === 'clip' ? clipFrames(job, signal) : await portraitFrames(job, signal);
  const frame = Buffer.alloc(size * size * 3);
  let lastReport = 0;
  try {
    await runFfmpeg(
      [
        '-y',
        '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-s', `${size}x${size}`, '-r', String(fps), '-i', 'pipe:0',
        '-i', job.speechFile,
        '-i', job.subsFile,
        '-map', '0:v', '-map', '1:a', '-map', '2:s',
        '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '26', '-pix_fmt', 'yuv420p',
        '-c:a', 'aac', '-b:a', '96k', '-ac', '1',
        '-c:s', 'mov_text', '-metadata:s:s:0', `language=${job.language}`,
        '-movflags', '+faststart',
        job.outFile,
      ],
      {
        timeoutMs: job.timeoutMs,
        signal,
        stdin: async (write) => {
          for (let f = 0; f < frames; f++) {
            signal.throwIfAborted();
            drawFrame(await look.next(), frame, size, size, levels[f]!);
            // A copy: the writer may still hold the buffer when the next frame is drawn.
            await write(Buffer.from(frame));
            const now = Date.now();
            if (onProgress && (now - lastReport > 250 || f === frames - 1)) {
              lastReport = now;
              onProgress((f + 1) / frames);
            }
          }
        },
      },
    );
  } finally {
    look.close();
  }
}
