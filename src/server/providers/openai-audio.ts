import { APICallError } from 'ai';
import { toModelError } from './errors';

/**
 * The OpenAI audio protocol, spoken by OpenAI and by OpenAI-compatible servers (vLLM, LocalAI,
 * Xinference, speaches…): `POST {base}/audio/speech` (JSON: model, input, voice, speed,
 * response_format → audio bytes) and `POST {base}/audio/transcriptions` (multipart: file, model,
 * language → `{ text }`). Both go out through the fetch they are given (the outbound policy's, see
 * model-service.ts); a failure is thrown as the ModelError of its status, like every model call.
 */

export interface SpeechCall {
  baseUrl: string;
  apiKey?: string;
  model: string;
  input: string;
  voice: string;
  speed?: number;
  signal?: AbortSignal;
}

export interface TranscriptionCall {
  baseUrl: string;
  apiKey?: string;
  model: string;
  audio: Uint8Array;
  mime: string;
  language?: string;
  signal?: AbortSignal;
}

/** How long one audio call may take (a long text's synthesis, a minute of recording). */
const AUDIO_TIMEOUT_MS = 60_000;

const signalOf = (signal?: AbortSignal) => (signal ? AbortSignal.any([signal, AbortSignal.timeout(AUDIO_TIMEOUT_MS)]) : AbortSignal.timeout(AUDIO_TIMEOUT_MS));
const authOf = (apiKey?: string): Record<string, string> => (apiKey ? { authorization: `Bearer ${apiKey}` } : {});

/** A non-2xx answer as the SDK's APICallError, so toModelError maps its status like the chat calls'. */
async function failure(res: Response, url: string, body: unknown): Promise<APICallError> {
  const responseBody = await res.text().catch(() => '');
  return new APICallError({ message: `HTTP ${res.status}`, url, requestBodyValues: body, statusCode: res.status, responseBody, isRetryable: false });
}

/** What audio bytes are, by their first bytes (servers do not all label them): WAV or else MP3. */
export function audioMimeOf(bytes: Uint8Array): 'audio/wav' | 'audio/mpeg' {
  return bytes.length >= 12 && Buffer.from(bytes.subarray(0, 4)).toString('latin1') === 'RIFF' && Buffer.from(bytes.subarray(8, 12)).toString('latin1') === 'WAVE' ? 'audio/wav' : 'audio/mpeg';
}

/** The sample rate in a WAV header (bytes 24..27), if it is one. */
export function wavSampleRate(bytes: Uint8Array): number | undefined {
  if (audioMimeOf(bytes) !== 'audio/wav' || bytes.length < 28) return undefined;
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).readUInt32LE(24);
}

/** Speech of a text: MP3 is asked for (smaller on the wire); a server answering WAV is taken as WAV. */
export async function openAiSpeech(fetchFn: typeof fetch, c: SpeechCall): Promise<{ audio: Buffer; mime: 'audio/wav' | 'audio/mpeg'; sampleRate?: number }> {
  const url = `${c.baseUrl.replace(/\/+$/, '')}/audio/speech`;
  const body = { model: c.model, input: c.input, voice: c.voice, response_format: 'mp3', ...(c.speed !== undefined ? { speed: c.speed } : {}) };
  try {
    const res = await fetchFn(url, { method: 'POST', headers: { 'content-type': 'application/json', ...authOf(c.apiKey) }, body: JSON.stringify(body), signal: signalOf(c.signal) });
    if (!res.ok) throw await failure(res, url, body);
    const audio = Buffer.from(await res.arrayBuffer());
    if (!audio.length) throw new APICallError({ message: 'The provider answered no audio', url, requestBodyValues: body, statusCode: 502, responseBody: '' });
    return { audio, mime: audioMimeOf(audio), sampleRate: wavSampleRate(audio) };
  } catch (e) {
    throw toModelError(e);
  }
}

/** The file name a transcription upload carries: servers guess the format by its extension. */
export function audioFileName(mime: string): string {
  const t = mime.split(';')[0].trim().toLowerCase();
  const ext = t.includes('webm') ? 'webm' : t.includes('ogg') ? 'ogg' : t.includes('wav') || t.includes('wave') ? 'wav' : t.includes('mpeg') || t.includes('mp3') ? 'mp3' : t.includes('flac') ? 'flac' : t.includes('aac') ? 'aac' : 'm4a';
  return `audio.${ext}`;
}

/** The text of a recording. */
export async function openAiTranscription(fetchFn: typeof fetch, c: TranscriptionCall): Promise<{ text: string }> {
  const url = `${c.baseUrl.replace(/\/+$/, '')}/audio/transcriptions`;
  const form = new FormData();
  form.append('file', new Blob([c.audio as Uint8Array<ArrayBuffer>], { type: c.mime.split(';')[0] }), audioFileName(c.mime));
  form.append('model', c.model);
  form.append('response_format', 'json');
  if (c.language) form.append('language', c.language);
  try {
    const res = await fetchFn(url, { method: 'POST', headers: authOf(c.apiKey), body: form, signal: signalOf(c.signal) });
    if (!res.ok) throw await failure(res, url, { model: c.model });
    const json = (await res.json()) as { text?: unknown };
    if (typeof json?.text !== 'string') throw new APICallError({ message: 'The provider answered no text', url, requestBodyValues: { model: c.model }, statusCode: 502, responseBody: JSON.stringify(json).slice(0, 300) });
    return { text: json.text };
  } catch (e) {
    throw toModelError(e);
  }
}
