import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { SPEECH_LIMITS, speakable, type TextToAudioBody, type VoiceRef } from '../../../schemas/speech';
import { sentences } from '../digital-human/subtitles';
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
export async function sendSpeech(
  ctx: SpeechCtx,
  tenantId: string,
  body: TextToAudioBody,
  answerOf: (messageId: string) => Promise<string>,
  reply: FastifyReply,
  appVoice?: VoiceRef,
  opts: { streaming?: boolean } = {},
) {
  const text = body.text?.trim() ? body.text : body.message_id ? speakable(await answerOf(body.message_id)) : '';
  const voice = body.voice ? { ...appVoice, voice: body.voice } : appVoice;
  reply.header('cache-control', 'private, no-store');
  reply.header('x-content-type-options', 'nosniff');
  const parts = opts.streaming && text.trim().length <= SPEECH_LIMITS.textMax ? sentences(text) : [];
  if (parts.length < 2) {
    const r = await synthesize(ctx, tenantId, { text, language: body.language, voice });
    return reply.type(r.mime).send(r.audio);
  }
  // Streaming (Dify's `streaming: true`): each sentence synthesised and sent in turn, so playback
  // starts after the first one. The first is spoken before the answer starts, so its failure is
  // still an error answer; a later one ends the stream where it is.
  const abort = new AbortController();
  reply.raw.once('close', () => abort.abort());
  const first = await synthesize(ctx, tenantId, { text: parts[0]!, language: body.language, voice, signal: abort.signal });
  const wav = first.mime === 'audio/wav' ? wavParts(first.audio) : null;
  async function* rest() {
    // MP3 frames follow each other as they are; WAV sends one header of unknown length, then samples.
    yield wav ? Buffer.concat([streamingWavHeader(wav.fmt), wav.data]) : first.audio;
    for (const part of parts.slice(1)) {
      if (abort.signal.aborted) return;
      try {
        const r = await synthesize(ctx, tenantId, { text: part, language: body.language, voice, signal: abort.signal });
        yield wav ? (wavParts(r.audio)?.data ?? Buffer.alloc(0)) : r.audio;
      } catch {
        return;
      }
    }
  }
  return reply.type(first.mime).send(Readable.from(rest()));
}

/** A WAV's fmt chunk and samples (null when it has none). */
function wavParts(b: Buffer): { fmt: Buffer; data: Buffer } | null {
  let fmt: Buffer | null = null;
  for (let at = 12; at + 8 <= b.length; ) {
    const id = b.toString('latin1', at, at + 4);
    const size = b.readUInt32LE(at + 4);
    if (id === 'fmt ') fmt = b.subarray(at + 8, at + 8 + size);
    // eSpeak's own WAVs say 0x7fffffff for their data (it writes as it speaks): read to the end.
    if (id === 'data') return fmt ? { fmt, data: b.subarray(at + 8, Math.min(b.length, at + 8 + size)) } : null;
    at += 8 + size + (size % 2);
  }
  return null;
}

/** A WAV header for a stream whose length is not known when it starts: the sizes at their maximum, as players and ffmpeg read them. */
function streamingWavHeader(fmt: Buffer): Buffer {
  const h = Buffer.alloc(20);
  h.write('RIFF', 0, 'latin1');
  h.writeUInt32LE(0xffffffff, 4);
  h.write('WAVE', 8, 'latin1');
  h.write('fmt ', 12, 'latin1');
  h.writeUInt32LE(fmt.length, 16);
  const data = Buffer.alloc(8);
  data.write('data', 0, 'latin1');
  data.writeUInt32LE(0xffffffff, 4);
  return Buffer.concat([h, fmt, data]);
}
