import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import multipart from '@fastify/multipart';
import { ok } from '../../../../schemas/common';
import { PortalParams } from '../../../../schemas/portal';
import { PortalTextToAudioBody } from '../../../../schemas/digital-human';
import { AudioToTextResult, SpeechStatus } from '../../../../schemas/speech';
import { requireCaller, type ServerContext } from '../../context';
import { badRequest } from '../../errors';
import { portalTarget } from '../../runs/portal-access';
import { speechStatus, transcribe } from '../../speech';
import { portalAnswer } from '../../speech/answer-text';
import { AUDIO_CONSUMES, AUDIO_RESPONSE, sendSpeech } from '../../speech/routes-kit';
import { readAudioUpload } from '../../speech/upload';
import { portalCharacterOf } from '../../digital-human/characters';

const tags = ['web: portal'];
const done = <T>(data: T) => ({ code: 0 as const, msg: 'success', data });

/**
 * WEB speech (issue 31; Dify's `text-to-audio` and `audio-to-text`): an app the user may use, whose
 * distributed version has spoken answers or voice input on, reads text out and writes recordings
 * down with the tenant's speech models (the offline voice where no tts model is set). An app the
 * user may not use answers VALIDATION-1000 like a missing one; a feature that is off, 400.
 */
export const webSpeechRoutes = (ctx: ServerContext): FastifyPluginAsyncZod => async (app) => {
  await app.register(multipart, { throwFileSizeLimit: true });

  app.get(
    '/portal/:portal_id/speech',
    { schema: { tags, summary: 'What voice the app can offer now: a speech-to-text model for voice input, the voice that reads answers', params: PortalParams, response: { 200: ok(SpeechStatus) } } },
    async (req) => {
      const caller = requireCaller(req);
      await portalTarget(ctx, caller, req.params.portal_id);
      return done(await speechStatus(ctx, caller.tenantId));
    },
  );

  app.post(
    '/portal/:portal_id/text-to-audio',
    {
      schema: {
        tags,
        summary: "Speak a text or one of the user's answers in this app (the app's spoken answers must be on); at most 4096 characters; `speed` is the user's own rate (character settings)",
        params: PortalParams,
        body: PortalTextToAudioBody,
        produces: ['audio/mpeg', 'audio/wav'],
        response: AUDIO_RESPONSE,
      },
    },
    async (req, reply) => {
      const caller = requireCaller(req);
      const target = await portalTarget(ctx, caller, req.params.portal_id);
      if (!target.features.text_to_speech) throw badRequest('Spoken answers are off for this app', [{ path: 'features/text_to_speech', message: 'off' }]);
      // A digital human speaks in its character's voice (issue 31).
      const character = await portalCharacterOf(ctx, req.params.portal_id);
      // The user's own rate (the portal's character settings) replaces the character's.
      const { speed, ...body } = req.body;
      const voice = speed === undefined ? character?.voice : { ...character?.voice, speed };
      return sendSpeech(ctx, caller.tenantId, body, (id) => portalAnswer(ctx, caller, req.params.portal_id, id), reply, voice);
    },
  );

  app.post(
    '/portal/:portal_id/audio-to-text',
    {
      schema: {
        tags,
        summary: "Write down a recording (multipart: file, optional language) with the tenant's speech-to-text model; the app's voice input must be on; at most 10 MB",
        params: PortalParams,
        consumes: AUDIO_CONSUMES,
        response: { 200: ok(AudioToTextResult) },
      },
    },
    async (req) => {
      const caller = requireCaller(req);
      const target = await portalTarget(ctx, caller, req.params.portal_id);
      if (!target.features.speech_to_text) throw badRequest('Voice input is off for this app', [{ path: 'features/speech_to_text', message: 'off' }]);
      const upload = await readAudioUpload(req);
      return done(await transcribe(ctx, caller.tenantId, upload));
    },
  );
};
