import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../../../schemas/common';
import {
  ConversationFindQuery,
  ConversationGroup,
  ConversationGroupBody,
  FeedbackBody,
  SuggestedQuestions,
  WebConversation,
  WebConversationParams,
  WebConversationQuery,
  WebConversationUpdateBody,
  WebGroupParams,
  WebMessage,
  WebMessagePage,
  WebMessageParams,
  WebMessageQuery,
  webPage,
} from '../../../../schemas/portal';
import type { FlowDocument } from '../../../../schemas/flow';
import { requireCaller, type ServerContext } from '../../context';
import { portalTarget } from '../../runs/portal-access';
import { suggestFollowUps } from '../../runs/suggest';
import * as svc from '../../services/portal-conversations';

const tags = ['web: conversations'];
const done = <T>(data: T) => ({ code: 0 as const, msg: 'success', data });

/**
 * WEB conversations (the portal's sessions page; spec 7.6 "GET conversations; DELETE a
 * conversation"): the user's own conversations, their messages, feedback, follow-up suggestions and
 * groups. Another user's conversation, message or group answers VALIDATION-1000.
 */
export const webConversationRoutes = (ctx: ServerContext): FastifyPluginAsyncZod => async (app) => {
  app.get(
    '/conversations',
    { schema: { tags, summary: "The user's conversations across apps, pinned first then most recent; by app, group or name", querystring: WebConversationQuery, response: { 200: ok(webPage(WebConversation)) } } },
    async (req) => done(await svc.listConversations(ctx, requireCaller(req), req.query)),
  );

  app.get(
    '/conversations/:conversation_id',
    { schema: { tags, summary: "One of the user's conversations (accessible: false once they may no longer send)", params: WebConversationParams, response: { 200: ok(WebConversation) } } },
    async (req) => done(await svc.getConversation(ctx, requireCaller(req), req.params.conversation_id)),
  );

  app.get(
    '/conversation/find',
    {
      schema: {
        tags,
        summary: 'Legacy: the conversation by id (same as GET /conversations/{conversation_id})',
        deprecated: true,
        querystring: ConversationFindQuery,
        response: { 200: ok(WebConversation) },
      },
    },
    async (req) => done(await svc.getConversation(ctx, requireCaller(req), req.query.conversation_id)),
  );

  app.put(
    '/conversations/:conversation_id',
    { schema: { tags, summary: 'Rename, pin, move to one of your groups (null: out of it), set the character (persona)', params: WebConversationParams, body: WebConversationUpdateBody, response: { 200: ok(WebConversation) } } },
    async (req) => done(await svc.updateConversation(ctx, requireCaller(req), req.params.conversation_id, req.body)),
  );

  app.delete(
    '/conversations/:conversation_id',
    { schema: { tags, summary: 'Delete a conversation and its messages (its runs stay in the app log)', params: WebConversationParams, response: { 200: ok(z.null()) } } },
    async (req) => {
      await svc.deleteConversation(ctx, requireCaller(req), req.params.conversation_id);
      return done(null);
    },
  );

  app.get(
    '/conversations/:conversation_id/messages',
    { schema: { tags, summary: 'Messages, newest first, `limit` at a time; `before_id` (the oldest seen) for the page above', params: WebConversationParams, querystring: WebMessageQuery, response: { 200: ok(WebMessagePage) } } },
    async (req) => done(await svc.listMessages(ctx, requireCaller(req), req.params.conversation_id, req.query)),
  );

  app.put(
    '/messages/:message_id/feedback',
    { schema: { tags, summary: 'Like or dislike an answer (null takes it back); refused when the app takes no feedback', params: WebMessageParams, body: FeedbackBody, response: { 200: ok(WebMessage) } } },
    async (req) => done(await svc.setFeedback(ctx, requireCaller(req), req.params.message_id, req.body.rating)),
  );

  app.get(
    '/messages/:message_id/suggested',
    { schema: { tags, summary: "Up to three follow-up questions from the app's model (empty when the feature is off or no model answers)", params: WebMessageParams, response: { 200: ok(SuggestedQuestions) } } },
    async (req) => {
      const caller = requireCaller(req);
      const { message, conversation, features, document } = await svc.ownMessage(ctx, caller, req.params.message_id);
      // A model call costs the app's tenant: only while the user may still use the app.
      await portalTarget(ctx, caller, conversation.appId);
      if (!features.suggested_questions_after_answer || message.status !== 'succeeded' || !document) return done({ questions: [] });
      return done({ questions: await suggestFollowUps(ctx, conversation.tenantId, document as unknown as FlowDocument, message) });
    },
  );

  app.get(
    '/groups',
    { schema: { tags, summary: "The user's conversation groups with their conversation counts", response: { 200: ok(z.array(ConversationGroup)) } } },
    async (req) => done(await svc.listGroups(ctx, requireCaller(req))),
  );

  app.post(
    '/groups',
    { schema: { tags, summary: 'Create a group (names unique per user, any case)', body: ConversationGroupBody, response: { 200: ok(ConversationGroup) } } },
    async (req) => done(await svc.createGroup(ctx, requireCaller(req), req.body.name)),
  );

  app.put(
    '/groups/:group_id',
    { schema: { tags, summary: 'Rename a group', params: WebGroupParams, body: ConversationGroupBody, response: { 200: ok(ConversationGroup) } } },
    async (req) => done(await svc.renameGroup(ctx, requireCaller(req), req.params.group_id, req.body.name)),
  );

  app.delete(
    '/groups/:group_id',
    { schema: { tags, summary: 'Delete a group (its conversations stay, out of any group)', params: WebGroupParams, response: { 200: ok(z.null()) } } },
    async (req) => {
      await svc.deleteGroup(ctx, requireCaller(req), req.params.group_id);
      return done(null);
    },
  );
};
