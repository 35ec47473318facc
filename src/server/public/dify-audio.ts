import { and, eq } from 'drizzle-orm';
import { ErrorCode } from '../../../schemas/errors';
import type { AppFeatures } from '../../../schemas/flow';
import type { VoiceRef } from '../../../schemas/speech';
import type { DifyTextToSpeech } from '../../../schemas/public-api';
import { UUID_RE, type ServerContext } from '../context';
import { conversations, messages } from '../db/schema';
import { AppError } from '../errors';
import { portalCharacterOf } from '../digital-human/characters';
import { sttModelOf, ttsModelOf } from '../speech';
import { endUserCaller, notFound } from './dify-runs';
import type { ApiTarget } from './target';

/**
 * Speech through the public API (Dify's `/v1/text-to-audio` and `/v1/audio-to-text`): the app's
 * served version must have the feature on (as Dify checks its app's features), answers are read
 * only from the end user's own API conversations with this app, and the app speaks in its own voice.
 */

type VoiceFeature = keyof Pick<AppFeatures, 'text_to_speech' | 'speech_to_text'>;

/** SPEECH-1060 unless the served version has the feature on. */
export function requireVoiceFeature(target: ApiTarget, feature: VoiceFeature): void {
  if (target.features[feature]) return;
  const what = feature === 'text_to_speech' ? 'Spoken answers (text_to_speech) are' : 'Voice input (speech_to_text) is';
  throw new AppError(400, ErrorCode.SPEECH_FEATURE_OFF, `${what} off for this app: turn the feature on and publish the app`, { feature });
}

/**
 * The answer of one of the end user's API messages with this app. Another app's, another user's, a
 * portal or debug message, or a missing one: 404 alike (Dify's answer for a message not found).
 */
export async function apiAnswer(ctx: ServerContext, target: ApiTarget, user: string, messageId: string): Promise<string> {
  if (!UUID_RE.test(messageId)) throw notFound('Message', messageId);
  const caller = endUserCaller(target, user);
  const [row] = await ctx.db
    .select({ answer: messages.answer })
    .from(messages)
    .innerJoin(conversations, eq(conversations.id, messages.conversationId))
    .where(and(eq(messages.id, messageId), eq(conversations.appId, target.app.id), eq(conversations.createdBy, caller.userId), eq(conversations.source, 'api')));
  if (!row) throw notFound('Message', messageId);
  return row.answer;
}

/**
 * The app's own voice: its character's (a digital human) when it has one; otherwise none, so the
 * tenant's default tts model speaks, else the offline voice (speech/index.ts: ttsModelOf).
 */
export async function appVoiceOf(ctx: ServerContext, target: ApiTarget): Promise<VoiceRef | undefined> {
  return (await portalCharacterOf(ctx, target.app.id))?.voice ?? undefined;
}

/** Dify's language codes for the offline voice's languages. */
const DIFY_LANGUAGE: Record<string, string> = { zh: 'zh-Hans', en: 'en-US' };

/**
 * `/v1/parameters`' voice features as a call would find them: spoken answers when the feature is on
 * (the offline voice speaks where no tts model is set), with the app's own voice (its character's)
 * and, for the offline voice, whose voices are languages, that language; voice input when the
 * feature is on and the tenant has a speech2text model (without one audio-to-text answers SPEECH-1000).
 */
export async function apiVoiceFeatures(ctx: ServerContext, target: ApiTarget): Promise<{ text_to_speech: DifyTextToSpeech; speech_to_text: boolean }> {
  const on = target.features.text_to_speech;
  const stt = target.features.speech_to_text ? (await sttModelOf(ctx, target.app.tenantId)) !== null : false;
  const voice = on ? await appVoiceOf(ctx, target) : undefined;
  const offline = voice?.voice ? (await ttsModelOf(ctx, target.app.tenantId, voice)).offline : false;
  return {
    text_to_speech: { enabled: on, voice: voice?.voice ?? '', language: (offline && DIFY_LANGUAGE[voice!.voice!]) || '', autoPlay: on ? 'enabled' : 'disabled' },
    speech_to_text: stt,
  };
}
