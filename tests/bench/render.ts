/**
 * `npm run bench:render`: how free the server's main thread stays while a broadcast video renders.
 * The same video (30 s of speech, 480×480 at 25 fps, over a portrait and over an idle clip) is
 * rendered with its frames drawn on the calling thread (as before, encode.ts called directly) and on
 * the frames worker thread (frames-pool.ts, as the server does), interleaved A/B/A/B; during each
 * render, perf_hooks' event-loop delay monitor samples the main thread. Figures are printed with
 * `uptime`: on a loaded machine they are indicative only.
 */
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { encodeVideo, type EncodeJob } from '../../src/server/digital-human/encode';
import { runFfmpeg } from '../../src/server/digital-human/ffmpeg';
import { encodeOffThread } from '../../src/server/digital-human/frames-pool';
import { frameLevels } from '../../src/server/digital-human/mouth';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'weft-bench-render-'));

async function fixtures() {
  const f = (n: string) => path.join(dir, n);
  // Speech-like loudness: a tone switched on and off four times a second.
  await runFfmpeg(['-y', '-f', 'lavfi', '-i', `sine=frequency=220:duration=${SECONDS}:sample_rate=24000`, '-af', "volume='if(lt(mod(t,0.25),0.15),1,0.05)':eval=frame", '-ac', '1', '-c:a', 'pcm_s16le', f('speech.wav')], { timeoutMs: 60_000 });
  await runFfmpeg(['-y', '-f', 'lavfi', '-i', 'color=c=0xe8c4a0:s=480x480', '-frames:v', '1', f('portrait.png')], { timeoutMs: 10_000 });
  await runFfmpeg(['-y', '-f', 'lavfi', '-i', 'testsrc2=size=160x160:rate=25:duration=1', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', f('idle.mp4')], { timeoutMs: 10_000 });
  fs.writeFileSync(f('subs.srt'), `1\n00:00:00,000 --> 00:00:${String(SECONDS).padStart(2, '0')},000\nBench.\n`);
  const wav = fs.readFileSync(f('speech.wav'));
  const data = wav.indexOf('data') + 8;
  const pcm = new Int16Array(wav.buffer.slice(wav.byteOffset + data, wav.byteOffset + wav.length - ((wav.length - data) % 2)));
  return { f, levels: frameLevels(pcm, 24_000, 25, SECONDS * 25) };
}

async function measure(label: string, run: () => Promise<void>) {
  const h = monitorEventLoopDelay({ resolution: 10 });
  const cpu0 = process.cpuUsage();
  const elu0 = performance.eventLoopUtilization();
  const t0 = performance.now();
  h.enable();
  await run();
  h.disable();
  const ms = performance.now() - t0;
  const elu = performance.eventLoopUtilization(elu0);
  const cpu = process.cpuUsage(cpu0);
  const q = (p: number) => (h.percentile(p) / 1e6).toFixed(1);
  console.log(
    `${label.padEnd(22)} wall ${(ms / 1000).toFixed(1)} s · loop delay p50 ${q(50)} ms p99 ${q(99)} ms max ${(h.max / 1e6).toFixed(1)} ms · main-thread busy (ELU) ${(elu.utilization * 100).toFixed(1)} % · process CPU ${((cpu.user + cpu.system) / 1000 / ms * 100).toFixed(0)} %  [${execSync('uptime').toString().trim()}]`,
  );
}

const { f, levels } = await fixtures();
const job = (look: 'portrait' | 'clip', out: string): EncodeJob => ({
  lookFile: f(look === 'clip' ? 'idle.mp4' : 'portrait.png'),
  look,
  speechFile: f('speech.wav'),
  subsFile: f('subs.srt'),
  outFile: f(out),
  language: 'eng',
  size: 480,
  fps: 25,
  levels,
  timeoutMs: 600_000,
});
console.log(`${SECONDS} s of video, 480×480 at 25 fps (${levels.length} frames), ${ROUNDS} rounds interleaved; the main thread's event-loop delay while rendering:`);
for (let r = 0; r < ROUNDS; r++) {
  for (const look of ['portrait', 'clip'] as const) {
    await measure(`${look} main thread`, () => encodeVideo(job(look, `${look}-main.mp4`), new AbortController().signal));
    await measure(`${look} worker`, () => encodeOffThread(job(look, `${look}-worker.mp4`), {}));
  }
}
fs.rmSync(dir, { recursive: true, force: true });
process.exit(0);
