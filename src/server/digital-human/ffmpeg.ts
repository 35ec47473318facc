/**
 * The video encoder: the static ffmpeg binary inside @ffmpeg-installer/linux-x64 (a registry package
 * that carries the binary; nothing is downloaded at install or run time). Only this module starts it,
 * always that one fixed path with arguments this code builds: no tenant text ever reaches argv (the
 * script goes in through a subtitle file, the portrait and audio through files of the data directory).
 * Every run has a time limit and is killed when its render is stopped.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';

const resolveFrom = createRequire(import.meta.url);

/** The binary's path, resolved from the package (not from PATH). */
export function ffmpegPath(): string {
  const pkg = resolveFrom.resolve('@ffmpeg-installer/linux-x64/package.json');
  return path.join(path.dirname(pkg), 'ffmpeg');
}

export class FfmpegError extends Error {}

export interface FfmpegRun {
  /** Bytes written to stdin, or a producer that writes them (backpressure respected) and ends it. */
  stdin?: Buffer | ((write: (chunk: Buffer) => Promise<void>) => Promise<void>);
  timeoutMs: number;
  signal?: AbortSignal;
}

/**
 * Every input reads only local files and pipes: a portrait or clip is a tenant's upload, and some
 * formats (playlists, references) would make ffmpeg open other files or URLs outside the outbound policy.
 */
const localInputs = (args: readonly string[]) => args.flatMap((a) => (a === '-i' ? ['-protocol_whitelist', 'file,pipe', '-i'] : [a]));

/** Runs ffmpeg; answers stdout (stderr kept for the error). Non-zero exit, timeout or abort reject. */
export function runFfmpeg(args: readonly string[], opts: FfmpegRun): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // -nostdin unless frames come in on stdin (ffmpeg would otherwise read it as commands).
    const child = spawn(ffmpegPath(), ['-hide_banner', ...(opts.stdin ? [] : ['-nostdin']), ...localInputs(args)], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: {},
    });
    const out: Buffer[] = [];
    let err = '';
    let why: string | null = null;
    const kill = (reason: string) => {
      why ??= reason;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(() => kill(`ffmpeg took longer than ${Math.round(opts.timeoutMs / 1000)} s`), opts.timeoutMs);
    const onAbort = () => kill('stopped');
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => {
      err = (err + c.toString('utf8')).slice(-4000);
    });
    child.stdin.on('error', () => undefined);
    child.on('error', (e) => kill(e.message));
    child.on('close', (code) => {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      if (why) reject(new FfmpegError(why));
      else if (code !== 0) reject(new FfmpegError(`ffmpeg exited with ${code}: ${err.trim().split('\n').slice(-3).join(' | ')}`));
      else resolve(Buffer.concat(out));
    });
    const input = opts.stdin;
    if (!input) child.stdin.end();
    else if (Buffer.isBuffer(input)) child.stdin.end(input);
    else {
      const write = (chunk: Buffer) =>
        new Promise<void>((res, rej) => {
          if (why) return rej(new FfmpegError(why));
          child.stdin.write(chunk, (e) => (e ? rej(e) : res()));
        });
      input(write).then(
        () => child.stdin.end(),
        (e) => kill((e as Error).message),
      );
    }
  });
}

/** The duration ffmpeg reads from a media file (`Duration: hh:mm:ss.cc` of `ffmpeg -i`), in seconds. */
export async function mediaDuration(file: string, timeoutMs = 15_000): Promise<number> {
  // `ffmpeg -i` alone exits 1 ("no output file"): the banner on stderr is what is read.
  const text = await new Promise<string>((resolve, reject) => {
    const child = spawn(ffmpegPath(), ['-hide_banner', '-nostdin', ...localInputs(['-i', file])], { stdio: ['ignore', 'ignore', 'pipe'], env: {} });
    let err = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
    child.on('error', reject);
    child.on('close', () => {
      clearTimeout(timer);
      resolve(err);
    });
  });
  const m = /Duration: (\d+):(\d+):(\d+(?:\.\d+)?)/.exec(text);
  if (!m) throw new FfmpegError(`No duration in ffmpeg's answer for ${path.basename(file)}`);
  return Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]);
}
