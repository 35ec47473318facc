import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { speakable, type TextToAudioBody, type VoiceRef } from '../../../schemas/speech';
import type { SpeechCtx } from './index';
import { synthesize } from './index';

/** The 200 of text-to-audio in the OpenAPI document: the audio bytes. */
export const AUDIO_RESPONSE = { 200: z.string().describe('The audio bytes: audio/mpeg from a tts model, audio/wav from the offline voice (Content-Type says which)') };
export const AUDIO_CONSUMES = ['multipart/form-data'];

/**
 * Speaks the body's text (or the answer `answerOf` reads for its message_id) and sends the audio:
 * in `appVoice` (a digital human's character: its model, voice and speed) unless the body names a
 * voice of its own; with neither, the tenant's default voice.
 */
export async function sendSpeech(ctx: SpeechCtx, tenantId: string, body: TextToAudioBody, answerOf: (messageId: string) => Promise<string>, reply: FastifyReply, appVoice?: VoiceRef) {
  const text = body.text?.trim() ? body.text : body.message_id ? speakable(await answerOf(body.message_id)) : '';
  const voice = body.voice ? { ...appVoice, voice: body.voice } : appVoice;
  const r = await synthesize(ctx, tenantId, { text, language: body.language, voice });
  reply.header('cache-control', 'private, no-store');
  reply.header('x-content-type-options', 'nosniff');
  return reply.type(r.mime).send(r.audio);
}
