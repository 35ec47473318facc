/**
 * The built-in offline voice: eSpeak NG (WASM, the `espeak-ng` package) on one worker thread, so a
 * sentence's ~150 ms of CPU never holds the server's event loop. Texts queue on that one thread (a
 * second would double the memory of the 18 MB module for a voice meant as the fallback). The worker
 * starts on first use and stops after a while idle (../lazy-worker); a worker that dies fails the texts
 * it held and the next text starts a new one.
 */
import type { SpeechLanguage } from '../../../schemas/speech';
import { lazyWorker } from '../lazy-worker';

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

const voiceWorker = lazyWorker(WORKER_URL, { idleMs: IDLE_MS });

/** A WAV (22.05 kHz mono, 16 bit) of the text in eSpeak NG's voice. */
export function speakOffline(text: string, opts: { voice?: string; language?: SpeechLanguage; speed?: number } = {}): Promise<Buffer> {
  const voice = espeakVoiceOf(opts.voice, opts.language ?? languageOf(text));
  // A text that hangs the engine stops the worker: the others it held fail with it, the next starts anew.
  const timer = setTimeout(() => voiceWorker.restart('the offline voice took too long'), TEXT_TIMEOUT_MS);
  return voiceWorker
    .call({ text, voice, wpm: wpmOf(opts.speed) })
    .then((m) => {
      const wav = m.wav as Uint8Array;
      return Buffer.from(wav.buffer, wav.byteOffset, wav.byteLength);
    })
    .finally(() => clearTimeout(timer));
}
