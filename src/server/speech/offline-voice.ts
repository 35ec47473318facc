/**
 * The built-in offline voice: eSpeak NG (WASM, the `espeak-ng` package) on one worker thread, so a
 * sentence's ~150 ms of CPU never holds the server's event loop. Texts queue on that one thread (a
 * second would double the memory of the 18 MB module for a voice meant as the fallback). The worker
 * starts on first use and stops after a while idle; a worker that dies fails the texts it held and
 * the next text starts a new one.
 */
import { Worker } from 'node:worker_threads';
import type { SpeechLanguage } from '../../../schemas/speech';

const WORKER_URL = new URL('./espeak-worker.mjs', import.meta.url);
const IDLE_MS = 30_000;
/** One text's limit on the worker (a 4096-character text takes a few seconds). */
const TEXT_TIMEOUT_MS = 30_000;

/** eSpeak NG's voices for Weft's languages: Mandarin and American English. */
export const OFFLINE_VOICES: { id: SpeechLanguage; espeak: string; label: string }[] = [
  { id: 'zh', espeak: 'cmn', label: '中文 (eSpeak NG cmn)' },
  { id: 'en', espeak: 'en-us', label: 'English (eSpeak NG en-us)' },
];

/** eSpeak's normal rate in words a minute; a speed factor scales it (clamped to eSpeak's 80..450). */
const BASE_WPM = 175;
export const wpmOf = (speed = 1) => Math.round(Math.min(450, Math.max(80, BASE_WPM * speed)));

/** The language a text is in, for the voice: any CJK character makes it Chinese. */
export const languageOf = (text: string): SpeechLanguage => (/[\u3400-\u9fff\uf900-\ufaff]/.test(text) ? 'zh' : 'en');

/** The eSpeak voice for a voice id ('zh', 'en', or an eSpeak name of the two) or else the text's language. */
export function espeakVoiceOf(voice: string | undefined, language: SpeechLanguage): string {
  const v = voice?.toLowerCase();
  const hit = OFFLINE_VOICES.find((o) => o.id === v || o.espeak === v);
  return (hit ?? OFFLINE_VOICES.find((o) => o.id === language)!).espeak;
}

interface Pending {
  resolve: (wav: Buffer) => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout;
}

let worker: Worker | null = null;
let nextId = 1;
const pending = new Map<number, Pending>();
let idleTimer: NodeJS.Timeout | null = null;

function failAll(w: Worker, err: Error) {
  if (worker === w) worker = null;
  for (const [id, p] of pending) {
    pending.delete(id);
    clearTimeout(p.timer);
    p.reject(err);
  }
}

function startWorker(): Worker {
  if (worker) return worker;
  const w = new Worker(WORKER_URL, { execArgv: [] });
  worker = w;
  w.on('message', (m: { id: number; ok: boolean; wav?: Uint8Array; error?: string }) => {
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    clearTimeout(p.timer);
    if (m.ok && m.wav) p.resolve(Buffer.from(m.wav.buffer, m.wav.byteOffset, m.wav.byteLength));
    else p.reject(new Error(m.error ?? 'offline voice failed'));
    if (!pending.size) idle(w);
  });
  w.on('error', (e) => failAll(w, e instanceof Error ? e : new Error(String(e))));
  w.on('exit', (code) => failAll(w, new Error(`the offline voice's worker exited (${code})`)));
  return w;
}

function idle(w: Worker) {
  w.unref();
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = setTimeout(() => {
    idleTimer = null;
    if (worker === w && !pending.size) {
      worker = null;
      void w.terminate();
    }
  }, IDLE_MS);
  idleTimer.unref();
}

/** A WAV (22.05 kHz mono, 16 bit) of the text in eSpeak NG's voice. */
export function speakOffline(text: string, opts: { voice?: string; language?: SpeechLanguage; speed?: number } = {}): Promise<Buffer> {
  const voice = espeakVoiceOf(opts.voice, opts.language ?? languageOf(text));
  const w = startWorker();
  if (idleTimer) {
    clearTimeout(idleTimer);
    idleTimer = null;
  }
  w.ref();
  const id = nextId++;
  return new Promise<Buffer>((resolve, reject) => {
    // A text that hangs the engine stops the worker: the others it held fail with it, the next starts anew.
    const timer = setTimeout(() => {
      if (worker === w) {
        failAll(w, new Error('the offline voice took too long'));
        void w.terminate();
      }
    }, TEXT_TIMEOUT_MS);
    pending.set(id, { resolve, reject, timer });
    w.postMessage({ id, text, voice, wpm: wpmOf(opts.speed) });
  });
}
