/**
 * Speech for the rest of the server (issue 31): text to speech and speech to text in a tenant.
 *
 * - `synthesize`: the voice named (provider + model), else the tenant's default tts model, else the
 *   built-in offline voice (eSpeak NG, WAV) so speech works with nothing configured.
 * - `transcribe`: the tenant's default speech2text model (or the one named); none is SPEECH-1000.
 * - `listVoices`: the voices a picker offers for a voice reference.
 *
 * Failures are AppErrors with SPEECH codes (schemas/errors.ts), so routes and background tasks pass
 * them on as they are. The calls go out through ModelService (credentials, enabled check, outbound
 * network policy).
 *
 * @example
 * const { audio, mime } = await synthesize(ctx, tenantId, { text: '你好', voice: { speed: 1.2 } });
 * const { text } = await transcribe(ctx, tenantId, { audio: upload, mime: 'audio/webm' });
 */
import type { ServerContext } from '../context';
import { AppError } from '../errors';
import { ErrorCode } from '../../../schemas/errors';
import { OFFLINE_VOICE_MODEL, OFFLINE_VOICE_PROVIDER, SPEECH_LIMITS, type SpeechLanguage, type SpeechStatus, type VoiceOption, type VoiceRef } from '../../../schemas/speech';
import { ModelService } from '../providers/model-service';
import { ModelError, toModelError } from '../providers/errors';
import { providerOf } from '../providers/catalogue';
import * as models from '../services/models';
import { catalogueCodeOf } from '../services/prompt-debug';
import { wavSampleRate } from '../providers/openai-audio';
import { languageOf, OFFLINE_VOICES, speakOffline } from './offline-voice';

export { OFFLINE_VOICE_MODEL, OFFLINE_VOICE_PROVIDER } from '../../../schemas/speech';

export type SpeechCtx = Pick<ServerContext, 'db' | 'secretKey' | 'outbound'>;

export interface SynthesizeInput {
  voice?: VoiceRef;
  text: string;
  language?: SpeechLanguage;
  signal?: AbortSignal;
}

export interface SynthesizeResult {
  audio: Buffer;
  mime: 'audio/wav' | 'audio/mpeg';
  sampleRate?: number;
}

export interface TranscribeInput {
  audio: Buffer;
  mime: string;
  language?: string;
  /** A speech2text model to use instead of the tenant's default. */
  model?: { provider: string; model: string };
  signal?: AbortSignal;
}

/** The voices of OpenAI's /audio/speech, which OpenAI-compatible servers mostly accept too. */
export const OPENAI_VOICES = ['alloy', 'ash', 'ballad', 'coral', 'echo', 'fable', 'nova', 'onyx', 'sage', 'shimmer', 'verse'] as const;

/** A model failure as the SPEECH-1004 answer: 400 for a setup fault, 502 for the provider's. */
function speechFailure(e: unknown): AppError {
  if (e instanceof AppError) return e;
  const me = e instanceof ModelError ? e : toModelError(e);
  const setup = catalogueCodeOf(me) === ErrorCode.PARAM || me.code === 'not_allowed';
  return new AppError(setup ? 400 : 502, ErrorCode.SPEECH_FAILED, `The speech model failed (${me.code}): ${me.message}`, { model_error: me.code });
}

/** The text as it will be spoken: trimmed, not empty, within the limit. */
function checkedText(text: string): string {
  const t = text.trim();
  if (!t) throw new AppError(400, ErrorCode.SPEECH_TEXT_EMPTY, 'There is no text to speak');
  if (t.length > SPEECH_LIMITS.textMax) throw new AppError(400, ErrorCode.SPEECH_TEXT_TOO_LONG, `The text is longer than ${SPEECH_LIMITS.textMax} characters`, { limit: SPEECH_LIMITS.textMax });
  return t;
}

/** Which tts model speaks for a voice reference: the one named, the default, or the offline voice. */
export async function ttsModelOf(ctx: SpeechCtx, tenantId: string, ref?: VoiceRef): Promise<{ provider: string; model: string; offline: boolean }> {
  if (ref?.provider === OFFLINE_VOICE_PROVIDER) return { provider: OFFLINE_VOICE_PROVIDER, model: OFFLINE_VOICE_MODEL, offline: true };
  if (ref?.provider && ref.model) return { provider: ref.provider, model: ref.model, offline: false };
  const d = await models.getDefault(ctx, tenantId, 'tts');
  if (d) return { provider: d.provider, model: d.model, offline: false };
  return { provider: OFFLINE_VOICE_PROVIDER, model: OFFLINE_VOICE_MODEL, offline: true };
}

/** Speech of a text in the voice given (see the module's comment for which model speaks). */
export async function synthesize(ctx: SpeechCtx, tenantId: string, input: SynthesizeInput): Promise<SynthesizeResult> {
  const text = checkedText(input.text);
  const speed = input.voice?.speed;
  if (speed !== undefined && !(speed >= SPEECH_LIMITS.speedMin && speed <= SPEECH_LIMITS.speedMax)) {
    throw new AppError(400, ErrorCode.PARAM, `Parameter error: speed must be within ${SPEECH_LIMITS.speedMin}..${SPEECH_LIMITS.speedMax}`, [{ path: 'speed', message: 'out of range' }]);
  }
  const m = await ttsModelOf(ctx, tenantId, input.voice);
  try {
    if (m.offline) {
      const audio = await speakOffline(text, { voice: input.voice?.voice, language: input.language, speed });
      return { audio, mime: 'audio/wav', sampleRate: wavSampleRate(audio) };
    }
    const voice = input.voice?.voice || OPENAI_VOICES[0];
    return await new ModelService(ctx).speech({ tenantId, provider: m.provider, model: m.model, input: text, voice, speed, signal: input.signal });
  } catch (e) {
    if (m.offline && !(e instanceof AppError)) {
      throw new AppError(502, ErrorCode.SPEECH_FAILED, `The offline voice failed: ${e instanceof Error ? e.message : String(e)}`, { model_error: 'provider_error' });
    }
    throw speechFailure(e);
  }
}

/** The tenant's speech2text model, or null when voice input cannot work. */
export async function sttModelOf(ctx: SpeechCtx, tenantId: string): Promise<{ provider: string; model: string } | null> {
  const d = await models.getDefault(ctx, tenantId, 'speech2text');
  return d ? { provider: d.provider, model: d.model } : null;
}

/** The text of a recording, by the tenant's default speech2text model. */
export async function transcribe(ctx: SpeechCtx, tenantId: string, input: TranscribeInput): Promise<{ text: string }> {
  if (!input.audio.length || input.audio.length > SPEECH_LIMITS.audioMaxBytes) {
    throw new AppError(400, ErrorCode.SPEECH_AUDIO_SIZE, `The audio is empty or larger than ${SPEECH_LIMITS.audioMaxBytes} bytes`, { limit: SPEECH_LIMITS.audioMaxBytes });
  }
  const m = input.model ?? (await sttModelOf(ctx, tenantId));
  if (!m) throw new AppError(400, ErrorCode.SPEECH_NO_STT_MODEL, 'Voice input needs a speech-to-text model: set a default speech2text model under System › Models');
  try {
    const r = await new ModelService(ctx).transcription({ tenantId, provider: m.provider, model: m.model, audio: input.audio, mime: input.mime, language: input.language, signal: input.signal });
    return { text: r.text.trim() };
  } catch (e) {
    throw speechFailure(e);
  }
}

/** What voice the tenant can offer now (the portal's microphone button and speaker read it). */
export async function speechStatus(ctx: SpeechCtx, tenantId: string): Promise<SpeechStatus> {
  const [stt, tts] = await Promise.all([sttModelOf(ctx, tenantId), ttsModelOf(ctx, tenantId)]);
  return { speech_to_text: stt !== null, text_to_speech: tts };
}

/**
 * The voices a picker offers for a voice reference: the offline voice's languages, or the voices of
 * the tts model's provider (OpenAI's list for OpenAI-compatible servers).
 */
export async function listVoices(ctx: SpeechCtx, tenantId: string, ref?: VoiceRef): Promise<VoiceOption[]> {
  const m = await ttsModelOf(ctx, tenantId, ref);
  if (m.offline) return OFFLINE_VOICES.map((v) => ({ id: v.id, label: v.label, language: v.id }));
  const p = providerOf(m.provider);
  if (!p || p.protocol !== 'openai-compatible') return [];
  return (p.tts_voices ?? OPENAI_VOICES).map((v) => ({ id: v, label: v }));
}

export { languageOf };
