import type { FastifyRequest } from 'fastify';
import { AppError, badRequest } from '../errors';
import { ErrorCode } from '../../../schemas/errors';
import { AUDIO_MIMES, SPEECH_LIMITS } from '../../../schemas/speech';

export interface AudioUpload {
  audio: Buffer;
  mime: string;
  language?: string;
  /** The multipart field `user` as sent (the public API's end user; the caller checks it). */
  user?: string;
}

const sizeError = () => new AppError(400, ErrorCode.SPEECH_AUDIO_SIZE, `The audio is empty or larger than ${SPEECH_LIMITS.audioMaxBytes} bytes`, { limit: SPEECH_LIMITS.audioMaxBytes });

/** The media type without its parameters (`audio/webm;codecs=opus` → `audio/webm`). */
export const baseMime = (mime: string) => mime.split(';')[0].trim().toLowerCase();

/**
 * The recording of an audio-to-text request (Dify's shape: multipart with `file`, optional
 * `language`, and `user` on the public API): one file of an accepted audio type, at most SPEECH_LIMITS.audioMaxBytes. The limit is
 * enforced while reading (a larger upload is cut off, not buffered).
 */
export async function readAudioUpload(req: FastifyRequest): Promise<AudioUpload> {
  if (!req.isMultipart()) throw badRequest('The upload must be multipart/form-data with the field file', [{ path: 'body/file', message: 'required' }]);
  let file: { bytes: Buffer; mime: string } | undefined;
  let language: string | undefined;
  let user: string | undefined;
  try {
    for await (const part of req.parts({ limits: { fileSize: SPEECH_LIMITS.audioMaxBytes, files: 1, fields: 5, fieldSize: 1024 } })) {
      if (part.type === 'file') {
        const bytes = await part.toBuffer();
        if (part.fieldname === 'file' && !file) file = { bytes, mime: part.mimetype };
      } else if (part.fieldname === 'language' && typeof part.value === 'string' && /^[a-zA-Z-]{2,10}$/.test(part.value)) {
        language = part.value;
      } else if (part.fieldname === 'user' && typeof part.value === 'string') {
        user = part.value;
      }
    }
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw sizeError();
    if (code?.startsWith('FST_')) throw badRequest(`Invalid upload: ${(e as Error).message}`);
    throw e;
  }
  if (!file) throw badRequest('No audio was sent (multipart field "file")', [{ path: 'body/file', message: 'required' }]);
  if (!(AUDIO_MIMES as readonly string[]).includes(baseMime(file.mime))) {
    throw new AppError(400, ErrorCode.SPEECH_AUDIO_UNSUPPORTED, `Audio of type '${baseMime(file.mime)}' is not accepted`, { accepted: AUDIO_MIMES });
  }
  if (!file.bytes.length) throw sizeError();
  return { audio: file.bytes, mime: file.mime, language, user };
}
