import { z } from 'zod';

/**
 * Speech (issue 31): text to speech and speech to text through the tenant's tts and speech2text
 * models (OpenAI-compatible `/audio/speech` and `/audio/transcriptions`), and the built-in offline
 * voice (eSpeak NG) where no tts model is set. Dify's call names: `text-to-audio`, `audio-to-text`.
 */

/** The built-in offline voice's provider id (no credentials, always there). */
export const OFFLINE_VOICE_PROVIDER = 'weft_offline';
/** Its one model. */
export const OFFLINE_VOICE_MODEL = 'espeak-ng';

export const SPEECH_LIMITS = {
  /** Characters of one text-to-audio call (OpenAI's /audio/speech takes at most 4096). */
  textMax: 4096,
  /** Bytes of one uploaded recording (OpenAI's /audio/transcriptions takes at most 25 MB). */
  audioMaxBytes: 10 * 1024 * 1024,
  /** Speed factor range (OpenAI's): 1 is normal. */
  speedMin: 0.25,
  speedMax: 4,
} as const;

/** Audio types an audio-to-text upload may have (the parameters after `;` are ignored). */
export const AUDIO_MIMES = [
  'audio/webm',
  'audio/ogg',
  'audio/wav',
  'audio/x-wav',
  'audio/wave',
  'audio/mpeg',
  'audio/mp3',
  'audio/mp4',
  'audio/m4a',
  'audio/x-m4a',
  'audio/aac',
  'audio/flac',
  'video/webm',
] as const;

export const SpeechLanguage = z.enum(['zh', 'en']);
export type SpeechLanguage = z.infer<typeof SpeechLanguage>;

/** Which voice speaks: a provider's tts model and one of its voices, and a speed (all optional). */
export const VoiceRef = z.object({
  provider: z.string().max(64).optional(),
  model: z.string().max(200).optional(),
  voice: z.string().max(100).optional(),
  speed: z.number().min(SPEECH_LIMITS.speedMin).max(SPEECH_LIMITS.speedMax).optional(),
});
export type VoiceRef = z.infer<typeof VoiceRef>;

/** A voice a picker offers. */
export const VoiceOption = z.object({
  id: z.string(),
  /** Display name (brand or voice name, not translated). */
  label: z.string(),
  language: SpeechLanguage.optional(),
});
export type VoiceOption = z.infer<typeof VoiceOption>;

/** POST …/text-to-audio: the text, or the id of an answer to read out. */
export const TextToAudioBody = z.object({
  text: z.string().max(SPEECH_LIMITS.textMax * 4).optional().describe('Text to speak (at most 4096 characters)'),
  message_id: z.string().max(64).optional().describe('Id of an answer message to speak instead of text'),
  voice: z.string().max(100).optional().describe("A voice of the model (alloy, echo… or the offline voice's zh / en)"),
  language: SpeechLanguage.optional(),
  streaming: z.boolean().optional().describe('/v1 (Dify): true sends the audio sentence by sentence as it is synthesised (a WAV of unknown length from the offline voice, MP3 frames from a tts model); elsewhere the audio is answered whole'),
});
export type TextToAudioBody = z.infer<typeof TextToAudioBody>;

/** POST …/audio-to-text answer. */
export const AudioToTextResult = z.object({ text: z.string() });

/** What the console and portal need to offer voice: is there a speech2text model, which tts speaks. */
export const SpeechStatus = z.object({
  speech_to_text: z.boolean(),
  text_to_speech: z.object({ provider: z.string(), model: z.string(), offline: z.boolean() }),
});
export type SpeechStatus = z.infer<typeof SpeechStatus>;

/**
 * The words of a markdown answer as they are read out: code blocks, images and markup left out, a
 * link read as its text. The portal splits this into sentences; text-to-audio of a message uses it too.
 */
export function speakable(markdown: string): string {
  return markdown
    .replace(/```[\s\S]*?(```|$)/g, ' ')
    .replace(/!\[[^\]]*\]\([^)]*\)/g, ' ')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, ' ')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/^\s{0,3}(#{1,6}|>|[-*+]|\d+\.)\s+/gm, '')
    .replace(/[*_~|]+/g, '')
    .replace(/[ \t]+/g, ' ')
    .trim();
}
