import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok, page } from '../../../../schemas/common';
import {
  Broadcast,
  BroadcastCreateBody,
  BroadcastListQuery,
  BroadcastParams,
  BroadcastUpdateBody,
  Character,
  CharacterCreateBody,
  CharacterListQuery,
  CharacterParams,
  CharacterUpdateBody,
  DhAppParams,
  DigitalHumanApp,
  DigitalHumanSetBody,
  VOICE_SAMPLE_MAX,
  VoiceListQuery,
  VoiceSampleBody,
} from '../../../../schemas/digital-human';
import { VoiceOption } from '../../../../schemas/speech';
import type { ServerContext } from '../../context';
import * as bc from '../../digital-human/broadcasts';
import * as dh from '../../digital-human/apps';
import * as chars from '../../digital-human/characters';
import { videoPath } from '../../digital-human/video-store';
import { contentDisposition } from '../../services/files';
import { scopeOf } from '../../services/workspace-resources';
import { requireMembership } from '../../context';
import { listVoices, synthesize } from '../../speech';
import { AUDIO_RESPONSE } from '../../speech/routes-kit';

const headers = z.looseObject({ 'x-workspace-id': z.string().optional().describe('The project space (required; missing: VALIDATION-1008)') });
const done = <T>(data: T) => ({ code: 0 as const, msg: 'success', data });

/** Audio bytes as the answer (the OpenAPI document describes them as AUDIO_RESPONSE's string). */
function sendAudio(reply: FastifyReply, r: { audio: Buffer; mime: string }) {
  reply.header('cache-control', 'private, no-store');
  reply.header('x-content-type-options', 'nosniff');
  return reply.type(r.mime).send(r.audio);
}

/**
 * Characters of a project space (issue 31; schemas/digital-human.ts): any member reads; every member
 * creates and changes (as apps); owner and admin delete one no app speaks as (DH-1004).
 */
export const characterRoutes = (ctx: ServerContext): FastifyPluginAsyncZod => async (app) => {
  const tags = ['console: characters'];
  app.get(
    '/',
    { schema: { tags, summary: 'Characters of the project space, last changed first (any member)', headers, querystring: CharacterListQuery, response: { 200: ok(page(Character)) } } },
    async (req) => done(await chars.listCharacters(ctx, scopeOf(req), req.query)),
  );
  app.post(
    '/',
    {
      schema: {
        tags,
        summary: "Create a character (any member): portrait_file_id an 'icon' upload (image, at most 5 MB), idle_clip_file_id a 'clip' upload (mp4/webm, at most 10 MB)",
        headers,
        body: CharacterCreateBody,
        response: { 200: ok(Character) },
      },
    },
    async (req) => {
      const { id: _id, ...input } = req.body;
      return done(await chars.createCharacter(ctx, scopeOf(req), input));
    },
  );
  app.put('/', { schema: { tags, summary: 'Change a character (any member); fields left out stay', headers, body: CharacterUpdateBody, response: { 200: ok(Character) } } }, async (req) =>
    done(await chars.updateCharacter(ctx, scopeOf(req), req.body)),
  );
  // Static paths before /:character_id (fastify prefers them anyway; kept apart for the reader).
  app.get(
    '/voices',
    {
      schema: {
        tags,
        summary: "The voices a character may speak with (any member): a tts model's (OpenAI's list for OpenAI-compatible ones), or the offline voice's languages when none is named and the tenant has no default",
        headers,
        querystring: VoiceListQuery,
        response: { 200: ok(z.array(VoiceOption)) },
      },
    },
    async (req) => {
      const s = scopeOf(req);
      await requireMembership(ctx.db, s.caller, s.workspaceId);
      const { provider, model } = req.query;
      return done(await listVoices(ctx, s.caller.tenantId, provider ? { provider, model } : undefined));
    },
  );
  app.post(
    '/voice-sample',
    {
      schema: {
        tags,
        summary: `Speak a sample text (at most ${VOICE_SAMPLE_MAX} characters) in a voice, for the character dialog's "listen" button (any member)`,
        headers,
        body: VoiceSampleBody,
        produces: ['audio/mpeg', 'audio/wav'],
        response: AUDIO_RESPONSE,
      },
    },
    async (req, reply) => {
      const s = scopeOf(req);
      await requireMembership(ctx.db, s.caller, s.workspaceId);
      const { voice, text, language } = req.body;
      return sendAudio(reply, await synthesize(ctx, s.caller.tenantId, { text, language, voice }));
    },
  );
  app.get('/:character_id', { schema: { tags, summary: 'One character (any member)', headers, params: CharacterParams, response: { 200: ok(Character) } } }, async (req) =>
    done(await chars.getCharacter(ctx, scopeOf(req), req.params.character_id)),
  );
  app.delete(
    '/:character_id',
    { schema: { tags, summary: 'Delete a character (owner, admin); one that apps speak as: DH-1004 with the apps', headers, params: CharacterParams, response: { 200: ok(z.null()) } } },
    async (req) => {
      await chars.deleteCharacter(ctx, scopeOf(req), req.params.character_id);
      return done(null);
    },
  );
};

/** One byte range of `Range: bytes=a-b` within `size`, or null (whole file) / 'bad' (416). */
function rangeOf(header: string | undefined, size: number): { start: number; end: number } | null | 'bad' {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (!m[1] && !m[2])) return null;
  let start: number;
  let end: number;
  if (!m[1]) {
    start = Math.max(0, size - Number(m[2]));
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] ? Math.min(Number(m[2]), size - 1) : size - 1;
  }
  if (start > end || start >= size) return 'bad';
  return { start, end };
}

/**
 * Apps as digital humans and their broadcast videos (issue 31): the app's kind and character (any
 * member reads, every member sets), broadcasts with their render state, the MP4 (with byte ranges,
 * so a player can seek) and its WebVTT subtitles.
 */
export const digitalHumanAppRoutes = (ctx: ServerContext): FastifyPluginAsyncZod => async (app) => {
  const tags = ['console: digital humans'];
  app.get(
    '/:app_id/digital-human',
    { schema: { tags, summary: "The app's digital-human kind and character; null when it is an ordinary app (any member)", headers, params: DhAppParams, response: { 200: ok(DigitalHumanApp.nullable()) } } },
    async (req) => done(await dh.getDigitalHuman(ctx, scopeOf(req), req.params.app_id)),
  );
  app.put(
    '/:app_id/digital-human',
    {
      schema: {
        tags,
        summary: 'Make the app a digital human speaking as a character of its space (any member): conversation for chatflow and agent apps, broadcast for workflow apps (else DH-1001)',
        headers,
        params: DhAppParams,
        body: DigitalHumanSetBody,
        response: { 200: ok(DigitalHumanApp) },
      },
    },
    async (req) => done(await dh.setDigitalHuman(ctx, scopeOf(req), req.params.app_id, req.body)),
  );
  app.delete(
    '/:app_id/digital-human',
    { schema: { tags, summary: 'The app is an ordinary app again (any member)', headers, params: DhAppParams, response: { 200: ok(z.null()) } } },
    async (req) => {
      await dh.clearDigitalHuman(ctx, scopeOf(req), req.params.app_id);
      return done(null);
    },
  );

  app.get(
    '/:app_id/broadcasts',
    { schema: { tags, summary: "A broadcast app's videos, newest first, with their render state and progress (any member)", headers, params: DhAppParams, querystring: BroadcastListQuery, response: { 200: ok(page(Broadcast)) } } },
    async (req) => done(await bc.listBroadcasts(ctx, scopeOf(req), req.params.app_id, req.query)),
  );
  app.post(
    '/:app_id/broadcasts',
    {
      schema: {
        tags,
        summary: 'A new broadcast, queued for rendering (any member): script required, at most 1000 words (DH-1000); the app needs a character with a look (DH-1002)',
        headers,
        params: DhAppParams,
        body: BroadcastCreateBody,
        response: { 200: ok(Broadcast) },
      },
    },
    async (req) => done(await bc.createBroadcast(ctx, scopeOf(req), req.params.app_id, req.body)),
  );
  app.get('/:app_id/broadcasts/:broadcast_id', { schema: { tags, summary: 'One broadcast (any member)', headers, params: BroadcastParams, response: { 200: ok(Broadcast) } } }, async (req) =>
    done(bc.toBroadcast(await bc.getBroadcast(ctx, scopeOf(req), req.params.app_id, req.params.broadcast_id))),
  );
  app.put(
    '/:app_id/broadcasts/:broadcast_id',
    {
      schema: { tags, summary: 'Change the title or script (any member); a changed script renders again and the new video replaces the old one', headers, params: BroadcastParams, body: BroadcastUpdateBody, response: { 200: ok(Broadcast) } },
    },
    async (req) => done(await bc.updateBroadcast(ctx, scopeOf(req), req.params.app_id, req.params.broadcast_id, req.body)),
  );
  app.post(
    '/:app_id/broadcasts/:broadcast_id/regenerate',
    { schema: { tags, summary: 'Render the broadcast again (e.g. after the character changed; any member)', headers, params: BroadcastParams, response: { 200: ok(Broadcast) } } },
    async (req) => done(await bc.updateBroadcast(ctx, scopeOf(req), req.params.app_id, req.params.broadcast_id, {}, true)),
  );
  app.delete(
    '/:app_id/broadcasts/:broadcast_id',
    { schema: { tags, summary: 'Delete a broadcast and its video (any member)', headers, params: BroadcastParams, response: { 200: ok(z.null()) } } },
    async (req) => {
      await bc.deleteBroadcast(ctx, scopeOf(req), req.params.app_id, req.params.broadcast_id);
      return done(null);
    },
  );
  app.get(
    '/:app_id/broadcasts/:broadcast_id/video',
    {
      schema: {
        tags,
        summary: 'The rendered MP4 (H.264, AAC, mov_text subtitles); Range requests answer 206; not rendered yet: DH-1003 (any member)',
        headers,
        params: BroadcastParams,
        querystring: z.object({ download: z.enum(['1', '0']).optional().describe('1: as an attachment') }),
      },
    },
    async (req, reply) => {
      const row = await bc.videoOf(ctx, scopeOf(req), req.params.app_id, req.params.broadcast_id);
      const file = videoPath(ctx.settings, row.videoKey);
      const { size } = await fs.stat(file);
      const range = rangeOf(req.headers.range, size);
      reply.header('accept-ranges', 'bytes');
      reply.header('cache-control', 'private, no-cache');
      reply.header('x-content-type-options', 'nosniff');
      reply.header('content-disposition', contentDisposition(req.query.download === '1' ? 'attachment' : 'inline', `${row.title.replace(/[\\/]/g, '_')}.mp4`));
      reply.type('video/mp4');
      if (range === 'bad') return reply.status(416).header('content-range', `bytes */${size}`).send();
      if (!range) return reply.header('content-length', size).send(createReadStream(file));
      return reply
        .status(206)
        .header('content-range', `bytes ${range.start}-${range.end}/${size}`)
        .header('content-length', range.end - range.start + 1)
        .send(createReadStream(file, { start: range.start, end: range.end }));
    },
  );
  app.get(
    '/:app_id/broadcasts/:broadcast_id/subtitles',
    { schema: { tags, summary: "The video's subtitles as WebVTT, one cue per spoken sentence (any member)", headers, params: BroadcastParams } },
    async (req, reply) => {
      const row = await bc.videoOf(ctx, scopeOf(req), req.params.app_id, req.params.broadcast_id);
      reply.header('cache-control', 'private, no-cache');
      return reply.type('text/vtt; charset=utf-8').send(row.subtitles ?? 'WEBVTT\n');
    },
  );
};
