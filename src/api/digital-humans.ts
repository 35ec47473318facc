/**
 * CONSOLE digital humans (issue 31; schemas/digital-human.ts): characters of the project space, an
 * app's digital-human kind and character, and its broadcast videos (the MP4 and subtitles as blobs:
 * a <video> cannot send the bearer token, so the page plays an object URL).
 */
import { z } from 'zod';
import { page } from '../../schemas/common';
import {
  Broadcast,
  BroadcastCreateBody,
  BroadcastUpdateBody,
  Character,
  CharacterCreateBody,
  CharacterListQuery,
  CharacterUpdateBody,
  DigitalHumanApp,
  DigitalHumanSetBody,
  VoiceSampleBody,
} from '../../schemas/digital-human';
import { VoiceOption } from '../../schemas/speech';
import { call, request, type Endpoint, type RequestOptions } from './request';

type Opts = Omit<RequestOptions, 'responseType' | 'schema'>;

const chars = '/api/v1/console/characters';
const dh = '/api/v1/console/apps/:app_id/digital-human';
const bc = '/api/v1/console/apps/:app_id/broadcasts';
export const digitalHumanEndpoints = {
  listCharacters: { method: 'GET', url: chars, name: 'characters.list' },
  createCharacter: { method: 'POST', url: chars, name: 'characters.create' },
  updateCharacter: { method: 'PUT', url: chars, name: 'characters.update' },
  getCharacter: { method: 'GET', url: `${chars}/:character_id`, name: 'characters.get' },
  removeCharacter: { method: 'DELETE', url: `${chars}/:character_id`, name: 'characters.remove' },
  voices: { method: 'GET', url: `${chars}/voices`, name: 'characters.voices' },
  voiceSample: { method: 'POST', url: `${chars}/voice-sample`, name: 'characters.voiceSample' },
  getApp: { method: 'GET', url: dh, name: 'digitalHuman.get' },
  setApp: { method: 'PUT', url: dh, name: 'digitalHuman.set' },
  clearApp: { method: 'DELETE', url: dh, name: 'digitalHuman.clear' },
  listBroadcasts: { method: 'GET', url: bc, name: 'broadcasts.list' },
  createBroadcast: { method: 'POST', url: bc, name: 'broadcasts.create' },
  getBroadcast: { method: 'GET', url: `${bc}/:broadcast_id`, name: 'broadcasts.get' },
  updateBroadcast: { method: 'PUT', url: `${bc}/:broadcast_id`, name: 'broadcasts.update' },
  regenerateBroadcast: { method: 'POST', url: `${bc}/:broadcast_id/regenerate`, name: 'broadcasts.regenerate' },
  removeBroadcast: { method: 'DELETE', url: `${bc}/:broadcast_id`, name: 'broadcasts.remove' },
  video: { method: 'GET', url: `${bc}/:broadcast_id/video`, name: 'broadcasts.video' },
  subtitles: { method: 'GET', url: `${bc}/:broadcast_id/subtitles`, name: 'broadcasts.subtitles' },
} as const satisfies Record<string, Endpoint>;

const ep = digitalHumanEndpoints;
export type CharacterListParams = Partial<z.input<typeof CharacterListQuery>>;

export const listCharacters = (q: CharacterListParams = {}, opts?: Opts) => call(page(Character), ep.listCharacters, { ...q }, opts);
export const createCharacter = (body: z.input<typeof CharacterCreateBody>, opts?: Opts) => call(Character, ep.createCharacter, body, opts);
export const updateCharacter = (body: z.input<typeof CharacterUpdateBody>, opts?: Opts) => call(Character, ep.updateCharacter, body, opts);
export const getCharacter = (character_id: string, opts?: Opts) => call(Character, ep.getCharacter, { character_id }, opts);
export const deleteCharacter = (character_id: string, opts?: Opts) => call(z.null(), ep.removeCharacter, { character_id }, opts);

/** The voices of a tts model (none named: the default one, else the offline voice's languages). */
export const listVoices = (q: { provider?: string; model?: string } = {}, opts?: Opts) => call(z.array(VoiceOption), ep.voices, { ...q }, opts);
/** A sample text spoken in a voice (WAV or MP3, as the Blob's type says): the dialog's "listen" button. */
export const voiceSample = (body: z.input<typeof VoiceSampleBody>, opts?: Opts) => request(ep.voiceSample, body, { ...opts, responseType: 'blob' });

export const getDigitalHuman = (app_id: string, opts?: Opts) => call(DigitalHumanApp.nullable(), ep.getApp, { app_id }, opts);
export const setDigitalHuman = (app_id: string, body: z.input<typeof DigitalHumanSetBody>, opts?: Opts) => call(DigitalHumanApp, ep.setApp, { app_id, ...body }, opts);
export const clearDigitalHuman = (app_id: string, opts?: Opts) => call(z.null(), ep.clearApp, { app_id }, opts);

export const listBroadcasts = (app_id: string, q: { page?: number; page_size?: number } = {}, opts?: Opts) => call(page(Broadcast), ep.listBroadcasts, { app_id, ...q }, opts);
export const createBroadcast = (app_id: string, body: z.input<typeof BroadcastCreateBody>, opts?: Opts) => call(Broadcast, ep.createBroadcast, { app_id, ...body }, opts);
export const updateBroadcast = (app_id: string, broadcast_id: string, body: z.input<typeof BroadcastUpdateBody>, opts?: Opts) =>
  call(Broadcast, ep.updateBroadcast, { app_id, broadcast_id, ...body }, opts);
export const regenerateBroadcast = (app_id: string, broadcast_id: string, opts?: Opts) => call(Broadcast, ep.regenerateBroadcast, { app_id, broadcast_id }, opts);
export const deleteBroadcast = (app_id: string, broadcast_id: string, opts?: Opts) => call(z.null(), ep.removeBroadcast, { app_id, broadcast_id }, opts);
/** The rendered MP4 (DH-1003 while none is rendered). */
export const broadcastVideo = (app_id: string, broadcast_id: string, opts?: Opts) => request(ep.video, { app_id, broadcast_id }, { ...opts, responseType: 'blob' });
export const broadcastSubtitles = (app_id: string, broadcast_id: string, opts?: Opts) => request(ep.subtitles, { app_id, broadcast_id }, { ...opts, responseType: 'blob' });
