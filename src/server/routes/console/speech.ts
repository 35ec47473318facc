import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import multipart from '@fastify/multipart';
import { z } from 'zod';
import { ok } from '../../../../schemas/common';
import { RunAppParams } from '../../../../schemas/run-api';
import { AudioToTextResult, SpeechStatus, TextToAudioBody } from '../../../../schemas/speech';
import type { ServerContext } from '../../context';
import { requireApp } from '../../runs/app-flow';
import { scopeOf } from '../../services/workspace-resources';
import { speechStatus, transcribe } from '../../speech';
import { appAnswer } from '../../speech/answer-text';
import { AUDIO_CONSUMES, AUDIO_RESPONSE, sendSpeech } from '../../speech/routes-kit';
import { readAudioUpload } from '../../speech/upload';

const tags = ['console: runs'];
const headers = z.looseObject({ 'x-workspace-id': z.string().optional().describe('The project space (required; missing: VALIDATION-1008)') });
const done = <T>(data: T) => ({ code: 0 as const, msg: 'success', data });

/**
 * CONSOLE speech for the debug chat (issue 31; Dify's `text-to-audio` and `audio-to-text`): any
 * member of the app's project space, whatever the draft's voice switches say (the builder tries
 * voice before turning it on). A missing, foreign or other space's app answers VALIDATION-1000.
 */
export const consoleSpeechRoutes = (ctx: ServerContext): FastifyPluginAsyncZod => async (app) => {
  await app.register(multipart, { throwFileSizeLimit: true });

  app.get(
    '/:app_id/speech',
    { schema: { tags, summary: 'What voice the debug chat can offer: a speech-to-text model for voice input, the voice that reads answers', headers, params: RunAppParams, response: { 200: ok(SpeechStatus) } } },
    async (req) => {
      const s = scopeOf(req);
      await requireApp(ctx, { ...s, appId: req.params.app_id });
      return done(await speechStatus(ctx, s.caller.tenantId));
    },
  );

  app.post(
    '/:app_id/text-to-audio',
    {
      schema: {
        tags,
        summary: "Speak a text or an answer of the app's conversations; at most 4096 characters",
        headers,
        params: RunAppParams,
        body: TextToAudioBody,
        produces: ['audio/mpeg', 'audio/wav'],
        response: AUDIO_RESPONSE,
      },
    },
    async (req, reply) => {
      const s = scopeOf(req);
      const ref = await requireApp(ctx, { ...s, appId: req.params.app_id });
      return sendSpeech(ctx, s.caller.tenantId, req.body, (id) => appAnswer(ctx, ref, id), reply);
    },
  );

  app.post(
    '/:app_id/audio-to-text',
    {
      schema: {
        tags,
        summary: "Write down a recording (multipart: file, optional language) with the tenant's speech-to-text model; at most 10 MB",
        headers,
        params: RunAppParams,
        consumes: AUDIO_CONSUMES,
        response: { 200: ok(AudioToTextResult) },
      },
    },
    async (req) => {
      const s = scopeOf(req);
      await requireApp(ctx, { ...s, appId: req.params.app_id });
      const upload = await readAudioUpload(req);
      return done(await transcribe(ctx, s.caller.tenantId, upload));
    },
  );
};
