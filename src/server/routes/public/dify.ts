import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ChatBlockingResponse,
  ChatMessageBody,
  ConversationIdParams,
  ConversationsQuery,
  DifyConversation,
  DifyConversationPage,
  DifyInfo,
  DifyMessagePage,
  DifyParameters,
  DifyResult,
  DifyUploadedFile,
  EndUser,
  FeedbackBody,
  MessageIdParams,
  MessagesQuery,
  RenameBody,
  TaskParams,
  UserBody,
  UserQuery,
  WorkflowBlockingResponse,
  WorkflowRunBody,
} from '../../../../schemas/public-api';
import { z } from 'zod';
import { StreamResumeHeaders } from '../../../../schemas/run-api';
import type { ServerContext } from '../../context';
import type { ErrorCode, FieldIssue } from '../../../../schemas/errors';
import { findTextProblem } from '../../../../schemas/text';
import { AppError, badRequest } from '../../errors';
import { sendSse } from '../../http/sse';
import * as convs from '../../public/dify-conversations';
import { apiVoiceFeatures } from '../../public/dify-audio';
import { difyResume } from '../../public/dify-resume';
import { keyTarget, startApiChat, startApiWorkflow, stopApiRun, type ApiRun } from '../../public/dify-runs';
import { chatBlocking, difyStream, workflowBlocking, type DifyRunContext } from '../../public/dify-stream';
import { limitMbOf } from '../../services/files';
import { requireKey } from './key';

const tags = ['public: Dify-compatible'];
const security = [{ AppKey: [] }];
const success = { result: 'success' as const };

/**
 * Dify's service API paths (schemas/public-api.ts), answered with Dify's shapes. Runs use the app's
 * served version and are stored with source `api` (the app's log shows them); a client that
 * disconnects from a stream does not stop its run (stop is explicit, as in Dify).
 */
export const difyRoutes = (ctx: ServerContext): FastifyPluginAsyncZod => async (app) => {
  const log = (req: FastifyRequest) => (e: unknown) => req.log.error({ err: e }, 'storing an API run failed');

  /** Streams the run as Dify's SSE (then null), or waits for its end (blocking). */
  async function finish(req: FastifyRequest, reply: FastifyReply, run: ApiRun, mode: 'streaming' | 'blocking', chat: boolean, at: number) {
    const r: DifyRunContext = {
      started: run.started,
      chat,
      mode: run.target.app.mode,
      versionId: run.target.flow.versionId,
      citations: run.target.features.citations,
      at,
      edges: run.target.flow.document.edges,
    };
    if (mode === 'streaming') {
      await sendSse(reply, difyStream(r), { onError: (e) => req.log.error({ err: e }, 'API run stream failed') });
      return null;
    }
    // A workflow's answer goes out as soon as the run ended; its rows are written right after (the
    // log shows it within milliseconds). A chat's waits until they are: the next message names the
    // conversation, which must exist by then.
    const result = await (chat ? run.started.stored : run.started.execution.result);
    // Dify answers a failed blocking chat with an error (a workflow's answer carries its status instead).
    if (chat && result.status === 'failed') throw new AppError(400, (result.error?.code ?? 'RUN-1100') as ErrorCode, result.error?.message ?? 'The run failed');
    return { r, result };
  }

  app.post(
    '/chat-messages',
    {
      schema: {
        tags,
        security,
        summary: "Send a message to a chat app (its served version): `streaming` answers Dify's SSE events, `blocking` the message once answered",
        body: ChatMessageBody,
        response: { 200: ChatBlockingResponse.describe('Blocking: the message. Streaming: text/event-stream of Dify events (workflow_started, node_started, node_finished, message, workflow_finished, message_end, error, ping)') },
      },
    },
    async (req, reply) => {
      const at = Date.now();
      const run = await startApiChat(ctx, requireKey(req), req.body, log(req));
      const done = await finish(req, reply, run, req.body.response_mode, true, at);
      return done ? chatBlocking(done.r, done.result) : reply;
    },
  );

  app.post(
    '/chat-messages/:task_id/stop',
    { schema: { tags, security, summary: "Stop the end user's running message (success also when it had already ended)", params: TaskParams, body: UserBody, response: { 200: DifyResult } } },
    async (req) => {
      await stopApiRun(ctx, requireKey(req), req.params.task_id, req.body.user);
      return success;
    },
  );

  app.post(
    '/workflows/run',
    {
      schema: {
        tags,
        security,
        summary: "Run a workflow app (its served version) with the start form's values: `streaming` answers Dify's SSE events, `blocking` the result",
        body: WorkflowRunBody,
        response: { 200: WorkflowBlockingResponse.describe('Blocking: the run. Streaming: text/event-stream of Dify events (workflow_started, node_started, node_finished, text_chunk, workflow_finished, ping)') },
      },
    },
    async (req, reply) => {
      const at = Date.now();
      const run = await startApiWorkflow(ctx, requireKey(req), req.body, log(req));
      const done = await finish(req, reply, run, req.body.response_mode, false, at);
      return done ? workflowBlocking(done.r, done.result) : reply;
    },
  );

  app.post(
    '/workflows/tasks/:task_id/stop',
    { schema: { tags, security, summary: "Stop the end user's running workflow run (success also when it had already ended)", params: TaskParams, body: UserBody, response: { 200: DifyResult } } },
    async (req) => {
      await stopApiRun(ctx, requireKey(req), req.params.task_id, req.body.user);
      return success;
    },
  );

  /** A run's Dify stream again (any process), after Last-Event-ID. */
  async function resume(req: FastifyRequest, reply: FastifyReply, task: { task_id: string; user: string }, chat: boolean) {
    const last = req.headers['last-event-id'];
    const gone = new AbortController();
    const after = typeof last === 'string' ? Number(last) : -1;
    const frames = await difyResume(ctx, requireKey(req), task.task_id, task.user, chat, after, gone.signal);
    await sendSse(reply, frames, { onClientGone: () => gone.abort(), onError: (e) => req.log.error({ err: e }, 'API run stream failed') });
    return reply;
  }
  const resumed = (what: string) =>
    z.string().describe(`text/event-stream: the ${what}'s Dify frames after Last-Event-ID (each frame's id: as the first stream gave it), live until it ends`);

  app.get(
    '/chat-messages/:task_id/events',
    {
      schema: {
        tags,
        security,
        summary: "The end user's message streamed again, from any server process: the frames after Last-Event-ID (all without it), live until the run ends",
        params: TaskParams,
        querystring: UserQuery,
        headers: StreamResumeHeaders,
        response: { 200: resumed('message') },
      },
    },
    async (req, reply) => resume(req, reply, { task_id: req.params.task_id, user: req.query.user }, true),
  );

  app.get(
    '/workflows/tasks/:task_id/events',
    {
      schema: {
        tags,
        security,
        summary: "The end user's workflow run streamed again, from any server process: the frames after Last-Event-ID (all without it), live until the run ends",
        params: TaskParams,
        querystring: UserQuery,
        headers: StreamResumeHeaders,
        response: { 200: resumed('workflow run') },
      },
    },
    async (req, reply) => resume(req, reply, { task_id: req.params.task_id, user: req.query.user }, false),
  );

  app.get(
    '/conversations',
    { schema: { tags, security, summary: "The end user's conversations with the app, `limit` after `last_id`", querystring: ConversationsQuery, response: { 200: DifyConversationPage } } },
    async (req) => convs.listApiConversations(ctx, requireKey(req), req.query),
  );

  app.post(
    '/conversations/:conversation_id/name',
    { schema: { tags, security, summary: 'Rename a conversation (or name it from its first question: auto_generate)', params: ConversationIdParams, body: RenameBody, response: { 200: DifyConversation } } },
    async (req) => convs.renameApiConversation(ctx, requireKey(req), req.params.conversation_id, req.body),
  );

  app.delete(
    '/conversations/:conversation_id',
    { schema: { tags, security, summary: 'Delete a conversation and its messages (its runs stay in the app log)', params: ConversationIdParams, body: UserBody, response: { 200: DifyResult } } },
    async (req) => {
      await convs.deleteApiConversation(ctx, requireKey(req), req.params.conversation_id, req.body.user);
      return success;
    },
  );

  app.get(
    '/messages',
    { schema: { tags, security, summary: "A conversation's messages, oldest first: the latest `limit`, or those before `first_id`", querystring: MessagesQuery, response: { 200: DifyMessagePage } } },
    async (req) => convs.listApiMessages(ctx, requireKey(req), req.query),
  );

  app.post(
    '/messages/:message_id/feedbacks',
    { schema: { tags, security, summary: 'Like or dislike an answer (null takes it back)', params: MessageIdParams, body: FeedbackBody, response: { 200: DifyResult } } },
    async (req) => {
      await convs.apiFeedback(ctx, requireKey(req), req.params.message_id, req.body);
      return success;
    },
  );

  app.post(
    '/files/upload',
    {
      schema: {
        tags,
        security,
        summary: "Upload a file for a run's `files` or file inputs (multipart: file, user); the kinds and size the portal takes",
        consumes: ['multipart/form-data'],
        response: { 201: DifyUploadedFile },
      },
    },
    async (req, reply) => {
      const key = requireKey(req);
      if (!req.isMultipart()) throw badRequest('The upload must be multipart/form-data with the fields file and user');
      const maxBytes = limitMbOf(ctx.settings, 'chat') * 1024 * 1024;
      let user: string | undefined;
      let file: { name: string; bytes: Buffer } | undefined;
      // The text rule of every request (schemas/text.ts) for what only this handler reads: field
      // values and file names (all parts are read first, then the first problem answered).
      let textIssue: FieldIssue | undefined;
      try {
        for await (const part of req.parts({ limits: { fileSize: maxBytes, files: 1, fields: 10, fieldSize: 1024 } })) {
          textIssue ??=
            findTextProblem(part.fieldname, `body/${part.fieldname}`) ??
            (part.type === 'file' ? findTextProblem(part.filename ?? '', `body/${part.fieldname}/filename`) : findTextProblem(part.value, `body/${part.fieldname}`));
          if (part.type === 'file') {
            if (part.fieldname !== 'file' || file) await part.toBuffer();
            else file = { name: part.filename ?? '', bytes: await part.toBuffer() };
          } else if (part.fieldname === 'user') user = String(part.value);
        }
      } catch (e) {
        const code = (e as { code?: string }).code;
        if (code === 'FST_REQ_FILE_TOO_LARGE') throw badRequest(`The file is too large: at most ${Math.floor(maxBytes / 1024 / 1024)} MB`);
        if (code?.startsWith('FST_')) throw badRequest(`Invalid upload: ${(e as Error).message}`);
        throw e;
      }
      if (textIssue) throw badRequest(`Parameter error: ${textIssue.path} ${textIssue.message}`, [textIssue]);
      const who = EndUser.safeParse(user);
      if (!who.success) throw badRequest('The multipart field "user" is required', [{ path: 'body/user', message: 'required' }]);
      if (!file) throw badRequest('No file was sent (multipart field "file")', [{ path: 'body/file', message: 'required' }]);
      // 201 as Dify answers it (its clients check for it).
      return reply.status(201).send(await convs.apiUpload(ctx, key, who.data, file));
    },
  );

  app.get(
    '/parameters',
    { schema: { tags, security, summary: "The served version's opening statement, suggested questions, start form (user_input_form), uploads and voice (text_to_speech, speech_to_text as a call would find them)", response: { 200: DifyParameters } } },
    async (req) => {
      const target = await keyTarget(ctx, requireKey(req));
      return convs.apiParameters(target, ctx.settings.uploadMaxMb, await apiVoiceFeatures(ctx, target));
    },
  );

  app.get(
    '/info',
    { schema: { tags, security, summary: "The app's name, description and mode", response: { 200: DifyInfo } } },
    async (req) => {
      const { app: a } = await keyTarget(ctx, requireKey(req));
      return { name: a.name, description: a.description, tags: [], mode: a.mode };
    },
  );
};
