import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ChatCompletion, ChatCompletionBody, OpenAiModelList } from '../../../../schemas/public-api';
import type { ServerContext } from '../../context';
import type { ErrorCode } from '../../../../schemas/errors';
import { AppError } from '../../errors';
import { sendSse } from '../../http/sse';
import { completionOf, completionStream, listModels, rememberTurns, startCompletion } from '../../public/openai';
import { requireKey } from './key';

const tags = ['public: OpenAI-compatible'];
const security = [{ AppKey: [] }];

/**
 * OpenAI's chat-completions protocol over a chat app (public/openai.ts), so any OpenAI client
 * library talks to a Weft app with base URL `…/v1` and an app key. Errors answer OpenAI's
 * `{ error: { message, type, code, param } }` (code: a Weft catalogue code).
 */
export const openAiRoutes = (ctx: ServerContext): FastifyPluginAsyncZod => async (app) => {
  app.post(
    '/chat/completions',
    {
      schema: {
        tags,
        security,
        summary: "Chat with the key's app: the last user message is the question, earlier turns the conversation; `stream` answers chat.completion.chunk frames and [DONE]",
        body: ChatCompletionBody,
        response: { 200: ChatCompletion.describe('stream false: the completion. stream true: text/event-stream of chat.completion.chunk frames, then data: [DONE]') },
      },
    },
    async (req, reply) => {
      const run = await startCompletion(ctx, requireKey(req), req.body, (e) => req.log.error({ err: e }, 'storing an API run failed'));
      if (req.body.stream) {
        await sendSse(reply, completionStream(ctx, run), { onError: (e) => req.log.error({ err: e }, 'completion stream failed') });
        return reply;
      }
      const result = await run.started.stored;
      if (result.status === 'failed') throw new AppError(500, (result.error?.code ?? 'RUN-1100') as ErrorCode, result.error?.message ?? 'The run failed');
      await rememberTurns(ctx, run, result);
      return completionOf(run, result);
    },
  );

  app.get(
    '/models',
    { schema: { tags, security, summary: "The key's app as the one model (its id is the app's id)", response: { 200: OpenAiModelList } } },
    async (req) => listModels(ctx, requireKey(req)),
  );
};
