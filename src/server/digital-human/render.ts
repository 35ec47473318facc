/**
 * Renders a broadcast video: the character's idle clip (looped) or portrait with the mouth opened by
 * the speech's loudness frame by frame (mouth.ts), the speech as AAC and the script as soft
 * mov_text subtitles, one per spoken sentence and lasting exactly its audio (subtitles.ts), H.264 in an MP4 with its index in front
 * (`+faststart`, so a browser plays it while it loads). Here: the speech decoded and timed and the
 * loudness per frame; the frames are drawn and encoded on the frames worker thread (encode.ts,
 * frames-pool.ts), as raw RGB piped to ffmpeg: the loudness must drive the picture per frame, which
 * ffmpeg's own filters cannot read from a second input.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { frameLevels } from './mouth';
import { mediaDuration, runFfmpeg } from './ffmpeg';
import { encodeOffThread } from './frames-pool';
import { toSrt, toVtt, type Cue } from './subtitles';

export const VIDEO_SIZE = 480;
export const VIDEO_FPS = 25;
const PCM_RATE = 24_000;

export interface SpeechPart {
  /** The sentence spoken (its subtitle). */
  text: string;
  bytes: Buffer;
  mime: string;
}

export interface RenderInput {
  /** A directory of its own for the intermediate files (removed by the caller). */
  workDir: string;
  /** The portrait image or idle clip (mp4/webm, looped under the speech), with its stored file name (its extension tells ffmpeg the format). */
  look: { bytes: Buffer; name: string; kind: 'portrait' | 'clip' };
  /** The script's sentences as spoken, in order: each is a subtitle cue lasting exactly its audio. */
  speech: SpeechPart[];
  /** ISO 639-2 code of the subtitles' language (`chi`, `eng`). */
  language: string;
  outFile: string;
  signal?: AbortSignal;
  /** 0–1 as frames go into the encoder. */
  onProgress?: (fraction: number) => void;
  size?: number;
  fps?: number;
}

export interface RenderResult {
  /** The MP4's duration as ffmpeg reads it back, seconds. */
  duration: number;
  /** The speech's own duration, seconds. */
  audioDuration: number;
  vtt: string;
  bytes: number;
}

const AUDIO_EXT: Record<string, string> = { 'audio/wav': 'wav', 'audio/x-wav': 'wav', 'audio/wave': 'wav', 'audio/mpeg': 'mp3', 'audio/mp3': 'mp3', 'audio/ogg': 'ogg', 'audio/webm': 'webm', 'audio/flac': 'flac', 'audio/aac': 'aac', 'audio/mp4': 'm4a', 'audio/opus': 'opus' };
const safeExt = (name: string) => (/\.([a-z0-9]{1,5})$/i.exec(name)?.[1] ?? 'bin').toLowerCase();

/** A mono 16-bit PCM WAV file's bytes. */
function wavOf(pcm: Buffer, rate: number): Buffer {
  const h = Buffer.alloc(44);
  h.write('RIFF', 0, 'latin1');
  h.writeUInt32LE(36 + pcm.length, 4);
  h.write('WAVEfmt ', 8, 'latin1');
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20);
  h.writeUInt16LE(1, 22);
  h.writeUInt32LE(rate, 24);
  h.writeUInt32LE(rate * 2, 28);
  h.writeUInt16LE(2, 32);
  h.writeUInt16LE(16, 34);
  h.write('data', 36, 'latin1');
  h.writeUInt32LE(pcm.length, 40);
  return Buffer.concat([h, pcm]);
}

export async function renderBroadcast(input: RenderInput): Promise<RenderResult> {
  const size = input.size ?? VIDEO_SIZE;
  const fps = input.fps ?? VIDEO_FPS;
  const { workDir, signal } = input;
  const lookFile = path.join(workDir, `look.${safeExt(input.look.name)}`);
  const speechFile = path.join(workDir, 'speech.wav');
  const subsFile = path.join(workDir, 'subtitles.srt');
  await fs.writeFile(lookFile, input.look.bytes);

  // Each sentence's speech as mono PCM, end to end: their lengths time the subtitles, their
  // loudness opens the mouth, and together they are the video's sound and length.
  const pcms: Buffer[] = [];
  const cues: Cue[] = [];
  let at = 0;
  for (const [i, part] of input.speech.entries()) {
    const file = path.join(workDir, `part-${i}.${AUDIO_EXT[part.mime.split(';')[0]!.trim().toLowerCase()] ?? 'bin'}`);
    await fs.writeFile(file, part.bytes);
    const raw = await runFfmpeg(['-i', file, '-vn', '-ac', '1', '-ar', String(PCM_RATE), '-f', 's16le', '-acodec', 'pcm_s16le', 'pipe:1'], { timeoutMs: 60_000, signal });
    const even = raw.subarray(0, raw.length - (raw.length % 2));
    pcms.push(even);
    const seconds = even.length / 2 / PCM_RATE;
    cues.push({ start: at, end: at + seconds, text: part.text });
    at += seconds;
  }
  const all = Buffer.concat(pcms);
  await fs.writeFile(speechFile, wavOf(all, PCM_RATE));
  const pcm = new Int16Array(all.buffer, all.byteOffset, all.length / 2);
  const audioDuration = pcm.length / PCM_RATE;
  if (audioDuration <= 0) throw new Error('The speech is empty');
  const frames = Math.max(1, Math.round(audioDuration * fps));
  const levels = frameLevels(pcm, PCM_RATE, fps, frames);
  await fs.writeFile(subsFile, toSrt(cues), 'utf8');

  await encodeOffThread(
    {
      lookFile,
      look: input.look.kind,
      speechFile,
      subsFile,
      outFile: input.outFile,
      language: input.language,
      size,
      fps,
      levels,
      // Generous for a slow, shared machine: a 1000-word script speaks for several minutes.
      timeoutMs: 60_000 + audioDuration * 4_000,
    },
    { signal, onProgress: input.onProgress },
  );
  const stat = await fs.stat(input.outFile);
  return { duration: await mediaDuration(input.outFile), audioDuration, vtt: toVtt(cues), bytes: stat.size };
}
