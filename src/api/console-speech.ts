/**
 * CONSOLE speech (issue 31) for the editor's debug chat: what voice the tenant offers, answers read
 * out (`text-to-audio`) and recordings written down (`audio-to-text`), for any member of the app's
 * project space. Loaded with the debug chat's voice part, not the console's first load.
 */
import { AudioToTextResult, SpeechStatus } from '../../schemas/speech';
import { call, request, type Endpoint, type RequestOptions } from './request';

type Opts = Omit<RequestOptions, 'responseType' | 'schema'>;

const app = '/api/v1/console/apps/:app_id';
export const consoleSpeechEndpoints = {
  status: { method: 'GET', url: `${app}/speech`, name: 'apps.speech' },
  tts: { method: 'POST', url: `${app}/text-to-audio`, name: 'apps.textToAudio' },
  stt: { method: 'POST', url: `${app}/audio-to-text`, name: 'apps.audioToText' },
} as const satisfies Record<string, Endpoint>;

export const getAppSpeech = (app_id: string, opts?: Opts) => call(SpeechStatus, consoleSpeechEndpoints.status, { app_id }, opts);

/** The audio of a text (WAV or MP3, as the Blob's type says). */
export const appTextToAudio = (app_id: string, text: string, opts?: Opts) => request(consoleSpeechEndpoints.tts, { app_id, text }, { ...opts, responseType: 'blob' });

/** The text of a recording (multipart `file`). */
export function appAudioToText(app_id: string, audio: Blob, opts?: Opts) {
  const form = new FormData();
  const ext = audio.type.includes('ogg') ? 'ogg' : audio.type.includes('mp4') ? 'm4a' : audio.type.includes('wav') ? 'wav' : 'webm';
  form.append('file', audio, `recording.${ext}`);
  return call(AudioToTextResult, consoleSpeechEndpoints.stt, form, { path: { app_id }, ...opts });
}
