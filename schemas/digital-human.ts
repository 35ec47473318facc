import { z } from 'zod';
import { Id, Timestamp } from './common';
import { ErrorCode } from './errors';
import { coded, needsId, noId, pageNumber, pageSize } from './guards';
import { SpeechLanguage, TextToAudioBody } from './speech';

/**
 * Digital humans (issue 31, spec 1 "digital-human apps (video or conversational)", 2
 * `/operation/app/{appId}/digital-human`, 5 "Digital human broadcast content: required, max 1000
 * words", 9 "Broadcast text max 1000"): characters of a project space, the character an app speaks
 * as, and broadcast videos. Imports only zod.
 *
 * UI metadata (`.meta`): `label`/`help`/`placeholder` are i18n keys of the `digitalHuman` namespace,
 * `widget` picks the form widget (`portrait` and `voice` are the character screen's own), `order`
 * the form order.
 */

export const CHARACTER_PAGE_MAX = 1000;
export const CHARACTER_NAME_MAX = 50;
/** The persona goes into the app's system prompt; the same ceiling as the portal's own persona (PERSONA_MAX). */
export const CHARACTER_PERSONA_MAX = 2000;
export const CHARACTER_GREETING_MAX = 1000;
/** Spec 5 and 9: a broadcast script has at most 1000 words. */
export const BROADCAST_WORDS_MAX = 1000;
export const BROADCAST_TITLE_MAX = 100;
/** Idle clips: short looping videos (mp4, webm) of at most this size. */
export const CLIP_MAX_MB = 10;
export const CLIP_FILE_TYPES = ['mp4', 'webm'] as const;

/** A character's speech rate (1 = normal): the range its voice and a portal user's own choice keep to. */
export const CHARACTER_SPEED_MIN = 0.5;
export const CHARACTER_SPEED_MAX = 2;
/** Longest sample text the character dialog's "listen" button may speak. */
export const VOICE_SAMPLE_MAX = 200;
/**
 * Portrait types (the icon rules' images; anything else DH-1050). An SVG is drawn into a PNG when it
 * is set (the video encoder reads raster images only), and the character keeps that PNG.
 */
export const PORTRAIT_MIME_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif', 'image/bmp', 'image/svg+xml'] as const;
export const PORTRAIT_EXTENSIONS = ['.png', '.jpg', '.jpeg', '.webp', '.gif', '.bmp', '.svg'] as const;

const REQUIRED = 'This form field is required!';

/** Han characters (and kana, hangul) count one word each, as Chinese counts 字. */
const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]/gu;
/** Runs of letters or digits (with inner apostrophes and hyphens) of any other script are one word each. */
const WORD = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu;

/**
 * Words of a broadcast script as spec 5 means them: in Chinese each character (字) is a word, in
 * English each run of letters or digits; punctuation and spaces count nothing. A mixed script adds
 * both. Pure; the client's counter and the server's check use this one function.
 * @example countWords('你好，world 2') // 4
 */
export function countWords(text: string): number {
  const cjk = text.match(CJK)?.length ?? 0;
  const rest = text.replace(CJK, ' ').match(WORD)?.length ?? 0;
  return cjk + rest;
}

// ------------------------------------------------------------------ characters

/** The voice a character speaks with: a tts model of the tenant (provider, model, voice) or the offline voice when none. */
export const CharacterVoice = z
  .object({
    provider: z.string().trim().max(64).optional(),
    model: z.string().trim().max(200).optional(),
    voice: z.string().trim().max(100).optional(),
    /** Speech rate, 1 = normal. */
    speed: z.number().min(CHARACTER_SPEED_MIN).max(CHARACTER_SPEED_MAX).default(1),
  })
  .strict();
export type CharacterVoice = z.infer<typeof CharacterVoice>;

const name = z.string().trim().min(1, REQUIRED).max(CHARACTER_NAME_MAX).meta({ label: 'character.name', placeholder: 'character.namePlaceholder', widget: 'text', order: 1 });
const portrait = z
  .uuid()
  .nullable()
  .default(null)
  .meta({ label: 'character.portrait', help: 'character.portraitHelp', widget: 'portrait', order: 2 });
const idleClip = z.uuid().nullable().default(null).meta({ label: 'character.idleClip', help: 'character.idleClipHelp', widget: 'clip', order: 3 });
const voice = CharacterVoice.default({ speed: 1 }).meta({ label: 'character.voice', help: 'character.voiceHelp', widget: 'voice', order: 4 });
const persona = z
  .string()
  .trim()
  .max(CHARACTER_PERSONA_MAX)
  .default('')
  .meta({ label: 'character.persona', placeholder: 'character.personaPlaceholder', help: 'character.personaHelp', widget: 'textarea', rows: 5, order: 5 });
const greeting = z
  .string()
  .trim()
  .max(CHARACTER_GREETING_MAX)
  .default('')
  .meta({ label: 'character.greeting', placeholder: 'character.greetingPlaceholder', help: 'character.greetingHelp', widget: 'textarea', rows: 2, order: 6 });

/** A file a character shows (its portrait image or idle clip) with the URL an <img>/<video> loads without a token. */
export const CharacterMedia = z.object({ file_id: Id, url: z.string(), mime_type: z.string() });
export type CharacterMedia = z.infer<typeof CharacterMedia>;

export const Character = z.object({
  id: Id,
  workspace_id: Id,
  name: z.string(),
  portrait: CharacterMedia.nullable(),
  idle_clip: CharacterMedia.nullable(),
  voice: CharacterVoice,
  persona: z.string(),
  greeting: z.string(),
  /** Apps of the space that speak as this character. */
  app_count: z.number().int(),
  created_by: Id,
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Character = z.infer<typeof Character>;

export const CharacterListQuery = z.object({
  page: pageNumber,
  page_size: pageSize(CHARACTER_PAGE_MAX, 20),
  name: z.string().trim().max(64).optional(),
});
export type CharacterListQuery = z.infer<typeof CharacterListQuery>;

/** Create a character (owner, admin, member). The portrait is an image uploaded as an icon (biz_type `icon`), the clip as `clip`. */
export const CharacterCreateBody = z.object({ ...noId, name, portrait_file_id: portrait, idle_clip_file_id: idleClip, voice, persona, greeting }).strict();
export type CharacterCreateBody = z.infer<typeof CharacterCreateBody>;

/** Change a character: the fields sent change, the others stay. */
export const CharacterUpdateBody = z
  .object({
    ...needsId,
    name: name.optional(),
    portrait_file_id: z.uuid().nullable().optional(),
    idle_clip_file_id: z.uuid().nullable().optional(),
    voice: CharacterVoice.optional(),
    persona: z.string().trim().max(CHARACTER_PERSONA_MAX).optional(),
    greeting: z.string().trim().max(CHARACTER_GREETING_MAX).optional(),
  })
  .strict();
export type CharacterUpdateBody = z.infer<typeof CharacterUpdateBody>;

export const CharacterParams = z.object({ character_id: z.string().describe('Character id') });

/** GET /console/characters/voices: the voices of a tts model of the tenant (none named: the default, else the offline voice). */
export const VoiceListQuery = z.object({
  provider: z.string().trim().max(64).optional().describe("The tts model's provider (weft_offline: the offline voice)"),
  model: z.string().trim().max(200).optional().describe('The tts model'),
});
export type VoiceListQuery = z.infer<typeof VoiceListQuery>;

/** POST /console/characters/voice-sample: a short text spoken in a voice, for the dialog's "listen" button. */
export const VoiceSampleBody = z
  .object({
    voice: CharacterVoice,
    text: z.string().trim().min(1).max(VOICE_SAMPLE_MAX).describe(`The sample's text (at most ${VOICE_SAMPLE_MAX} characters)`),
    language: SpeechLanguage.optional(),
  })
  .strict();
export type VoiceSampleBody = z.infer<typeof VoiceSampleBody>;

// ------------------------------------------------------------------ digital-human apps

/**
 * What an app is as a digital human: `conversation` (a chatflow or agent app that answers as the
 * character: persona in its system prompt, greeting as its opening, voice for spoken answers) or
 * `broadcast` (a workflow app whose outputs are videos of the character reading scripts).
 */
export const DIGITAL_HUMAN_KINDS = ['conversation', 'broadcast'] as const;
export const DigitalHumanKind = z.enum(DIGITAL_HUMAN_KINDS);
export type DigitalHumanKind = z.infer<typeof DigitalHumanKind>;
/** The app types each kind fits. */
export const KIND_APP_TYPES: Readonly<Record<DigitalHumanKind, readonly string[]>> = {
  conversation: ['chatflow', 'agent'],
  broadcast: ['workflow'],
};

export const DigitalHumanApp = z.object({
  app_id: Id,
  kind: DigitalHumanKind,
  character: Character.nullable(),
  updated_at: Timestamp,
});
export type DigitalHumanApp = z.infer<typeof DigitalHumanApp>;

/** Make the app a digital human of a kind speaking as a character of its space (null: none yet). */
export const DigitalHumanSetBody = z.object({ kind: DigitalHumanKind, character_id: Id.nullable() }).strict();
export type DigitalHumanSetBody = z.infer<typeof DigitalHumanSetBody>;

/**
 * The portal's view of an app's character (GET /web/portal/{id}): what a speaking avatar needs.
 * Null when the app has none.
 */
export const PortalCharacter = z.object({
  name: z.string(),
  portrait_url: z.string().nullable(),
  idle_clip_url: z.string().nullable(),
  voice: CharacterVoice,
  greeting: z.string(),
});
export type PortalCharacter = z.infer<typeof PortalCharacter>;

/**
 * The portal's text-to-audio body: Dify's, plus the user's own speech rate from the character
 * settings (within the character's range; it replaces the character's speed).
 */
export const PortalTextToAudioBody = TextToAudioBody.extend({
  speed: z.number().min(CHARACTER_SPEED_MIN).max(CHARACTER_SPEED_MAX).optional().describe(`The user's speech rate, ${CHARACTER_SPEED_MIN}–${CHARACTER_SPEED_MAX} (1 = normal); left out: the character's`),
});
export type PortalTextToAudioBody = z.infer<typeof PortalTextToAudioBody>;

// ------------------------------------------------------------------ broadcasts

export const BROADCAST_STATES = ['queued', 'running', 'done', 'failed'] as const;
export const BroadcastState = z.enum(BROADCAST_STATES);
export type BroadcastState = z.infer<typeof BroadcastState>;

const scriptMessage = `Digital human broadcast content: required, max ${BROADCAST_WORDS_MAX} words`;
/** Spec 5: required, at most 1000 words ({@link countWords}); both failures answer DH-1000. */
export const BroadcastScript = z
  .string()
  .trim()
  .refine((s) => s.length > 0 && countWords(s) <= BROADCAST_WORDS_MAX, coded(ErrorCode.DH_SCRIPT_INVALID, scriptMessage))
  .meta({ label: 'broadcast.script', placeholder: 'broadcast.scriptPlaceholder', widget: 'textarea', rows: 8, order: 2 });

const title = z.string().trim().min(1, REQUIRED).max(BROADCAST_TITLE_MAX).meta({ label: 'broadcast.title', placeholder: 'broadcast.titlePlaceholder', widget: 'text', order: 1 });

export const Broadcast = z.object({
  id: Id,
  app_id: Id,
  title: z.string(),
  script: z.string(),
  words: z.number().int(),
  state: BroadcastState,
  /** 0–100 while running (speech 10, frames to 95, then the file). */
  progress: z.number().int(),
  error: z.string().nullable(),
  /** Of the rendered video (done), in seconds. */
  duration: z.number().nullable(),
  size: z.number().int().nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
  finished_at: Timestamp.nullable(),
});
export type Broadcast = z.infer<typeof Broadcast>;

/** A new broadcast: it is queued for rendering at once. */
export const BroadcastCreateBody = z.object({ title, script: BroadcastScript }).strict();
export type BroadcastCreateBody = z.infer<typeof BroadcastCreateBody>;
/** Change the title or script; a changed script is rendered again (the old video is replaced when the new one is done). */
export const BroadcastUpdateBody = z.object({ title: title.optional(), script: BroadcastScript.optional() }).strict();
export type BroadcastUpdateBody = z.infer<typeof BroadcastUpdateBody>;

export const BroadcastListQuery = z.object({ page: pageNumber, page_size: pageSize(CHARACTER_PAGE_MAX, 20) });
export const BroadcastParams = z.object({ app_id: z.string().describe('App id'), broadcast_id: z.string().describe('Broadcast id') });
export const DhAppParams = z.object({ app_id: z.string().describe('App id') });
