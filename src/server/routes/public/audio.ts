import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ApiAudioToTextResult, ApiTextToAudioBody, EndUser } from '../../../../schemas/public-api';
import { findTextProblem } from '../../../../schemas/text';
import type { ServerContext } from '../../context';
import { badRequest } from '../../errors';
import { apiAnswer, appVoiceOf, requireVoiceFeature } from '../../public/dify-audio';
import { keyTarget } from '../../public/dify-runs';
import { transcribe } from '../../speech';
import { AUDIO_CONSUMES, AUDIO_RESPONSE, sendSpeech } from '../../speech/routes-kit';
import { readAudioUpload } from '../../speech/upload';
import { requireKey } from './key';

const tags = ['public: Dify-compatible'];
const security = [{ AppKey: [] }];

/**
 * Dify's speech calls of the service API (issue 31), with an app key only (the group's hook): the
 * app's served version must have the feature on (SPEECH-1060); the texts and uploads have the
 * console's and portal's limits (SPEECH-1001/1002/1003); the voice is the app's own (its character's,
 * else the tenant's default tts model, else the offline voice).
 */
export const audioRoutes = (ctx: ServerContext): FastifyPluginAsyncZod => async (app) => {
  app.post(
    '/text-to-audio',
    {
      schema: {
        tags,
        security,
        summary: "Speak a text or one of the end user's answers (message_id, read before text) in the app's voice; at most 4096 characters; the app's text_to_speech must be on; streaming: true sends it sentence by sentence as it is synthesised",
        body: ApiTextToAudioBody,
        produces: ['audio/mpeg', 'audio/wav'],
        response: AUDIO_RESPONSE,
      },
    },
    async (req, reply) => {
      const target = await keyTarget(ctx, requireKey(req));
      requireVoiceFeature(target, 'text_to_speech');
      const { message_id, user } = req.body;
      // Dify reads the message when both are given.
      const body = message_id ? { ...req.body, text: undefined } : req.body;
      return sendSpeech(ctx, target.app.tenantId, body, (id) => apiAnswer(ctx, target, user, id), reply, await appVoiceOf(ctx, target), { streaming: req.body.streaming });
    },
  );

  app.post(
    '/audio-to-text',
    {
      schema: {
        tags,
        security,
        summary: "Write down a recording (multipart: file, user, optional language) with the tenant's speech-to-text model; at most 10 MB of webm, ogg, wav, mp3, m4a, aac or flac; the app's speech_to_text must be on",
        consumes: AUDIO_CONSUMES,
        response: { 200: ApiAudioToTextResult },
      },
    },
    async (req) => {
      const target = await keyTarget(ctx, requireKey(req));
      requireVoiceFeature(target, 'speech_to_text');
      const upload = await readAudioUpload(req);
      // The text rule of every request (schemas/text.ts) for the one field only this handler reads.
      const issue = findTextProblem(upload.user ?? '', 'body/user');
      if (issue) throw badRequest(`Parameter error: ${issue.path} ${issue.message}`, [issue]);
      if (!EndUser.safeParse(upload.user).success) throw badRequest('The multipart field "user" is required', [{ path: 'body/user', message: 'required' }]);
      return transcribe(ctx, target.app.tenantId, upload);
    },
  );
};
