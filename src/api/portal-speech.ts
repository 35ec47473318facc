/**
 * WEB speech (issue 31): what voice an app can offer, its answers read out (`text-to-audio`) and
 * recordings written down (`audio-to-text`). Loaded with the portal's voice part, not its first load.
 */
import { AudioToTextResult, SpeechStatus } from '../../schemas/speech';
import { call, request, type Endpoint, type RequestOptions } from './request';

type Opts = Omit<RequestOptions, 'responseType' | 'schema'>;

const app = '/api/v1/web/portal/:portal_id';
export const speechEndpoints = {
  status: { method: 'GET', url: `${app}/speech`, name: 'portal.speech' },
  tts: { method: 'POST', url: `${app}/text-to-audio`, name: 'portal.textToAudio' },
  stt: { method: 'POST', url: `${app}/audio-to-text`, name: 'portal.audioToText' },
} as const satisfies Record<string, Endpoint>;

export const getPortalSpeech = (portal_id: string, opts?: Opts) => call(SpeechStatus, speechEndpoints.status, { portal_id }, { workspaceId: null, ...opts });

/** The audio of a text (WAV or MP3, as the Blob's type says), at the user's own speed when given. */
export const portalTextToAudio = (portal_id: string, text: string, opts?: Opts, speed?: number) =>
  request(speechEndpoints.tts, { portal_id, text, ...(speed === undefined ? {} : { speed }) }, { workspaceId: null, ...opts, responseType: 'blob' });

/** The text of a recording (multipart `file`). */
export function portalAudioToText(portal_id: string, audio: Blob, opts?: Opts) {
  const form = new FormData();
  const ext = audio.type.includes('ogg') ? 'ogg' : audio.type.includes('mp4') ? 'm4a' : audio.type.includes('wav') ? 'wav' : 'webm';
  form.append('file', audio, `recording.${ext}`);
  return call(AudioToTextResult, speechEndpoints.stt, form, { path: { portal_id }, workspaceId: null, ...opts });
}
