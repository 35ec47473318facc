import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../../../schemas/common';
import {
  ConversationListQuery,
  ConversationMessage,
  ConversationParams,
  ConversationSummary,
  ConversationVariables,
  ConversationVariablesBody,
  DraftChatBody,
  DraftWorkflowBody,
  listPage,
  MessageListQuery,
  NodeRunBody,
  NodeRunParams,
  NodeRunResult,
  RunAppParams,
  RunDetail,
  RunListQuery,
  RunEventsHeaders,
  RunParams,
  RunStopResult,
  RunSummary,
} from '../../../../schemas/run-api';
import type { ServerContext } from '../../context';
import { RUN_STREAM_COALESCE_MS, sendSse } from '../../http/sse';
import { requireApp, type AppScope } from '../../runs/app-flow';
import { runStream, startDraftRun, type DraftRunRequest } from '../../runs/launch';
import { runRegistry } from '../../runs/registry';
import { replayRun } from '../../runs/replay';
import { runSingleNode } from '../../runs/single-node';
import { stopRunAnywhere } from '../../runs/stop';
import * as store from '../../runs/store';
import { scopeOf } from '../../services/workspace-resources';
import type { FastifyReply, FastifyRequest } from 'fastify';

const tags = ['console: runs'];
const headers = z.looseObject({ 'x-workspace-id': z.string().optional().describe('The project space (required; missing: VALIDATION-1008)') });
const done = <T>(data: T) => ({ code: 0 as const, msg: 'success', data });
const sse = { 200: z.string().describe('text/event-stream: `run_created`, then the run events of schemas/run.ts, one `event:`/`data:` frame each') };

const appScope = (req: FastifyRequest & { params: { app_id: string } }): AppScope => ({ ...scopeOf(req), appId: req.params.app_id });

/**
 * Runs of an app (issue 5): debug runs of the draft streamed as SSE, single-node runs, stop, the run
 * log and trace, and the conversations of chat apps. Any member of the app's workspace runs and
 * reads; a missing, foreign or other workspace's app answers VALIDATION-1000 (as the app routes).
 *
 * A client that disconnects from a stream does not stop the run: it goes on and is stored; stop is
 * the explicit POST .../runs/:run_id/stop, and GET .../runs/:run_id/events resumes the stream. Both
 * work whichever server process the client reaches (issue 34: the run bus and the run event log).
 */
export const runRoutes = (ctx: ServerContext): FastifyPluginAsyncZod => async (app) => {
  const registry = runRegistry(ctx);
  // On shutdown runs are stopped and stored (before the database closes); the server's close then cuts their streams.
  app.addHook('preClose', async () => registry.stopAll());

  async function stream(req: FastifyRequest & { params: { app_id: string } }, reply: FastifyReply, run: DraftRunRequest) {
    const started = await startDraftRun(ctx, appScope(req), run, (e) => req.log.error({ err: e }, 'storing a run failed'));
    await sendSse(reply, runStream(started), { coalesceMs: RUN_STREAM_COALESCE_MS, onError: (e) => req.log.error({ err: e }, 'run stream failed') });
  }

  app.post(
    '/:app_id/draft/chat-messages',
    {
      schema: {
        tags,
        summary: "Send a message to the draft of a chat app (chatflow, agent) and stream the run as SSE; without conversation_id a conversation starts",
        headers,
        params: RunAppParams,
        body: DraftChatBody,
        response: sse,
      },
    },
    (req, reply) => stream(req, reply, { kind: 'chat', body: req.body }),
  );

  app.post(
    '/:app_id/draft/workflow-runs',
    {
      schema: { tags, summary: "Run the draft of a workflow app with the start form's values; streams the run as SSE", headers, params: RunAppParams, body: DraftWorkflowBody, response: sse },
    },
    (req, reply) => stream(req, reply, { kind: 'workflow', body: req.body }),
  );

  app.post(
    '/:app_id/draft/nodes/:node_id/run',
    {
      schema: {
        tags,
        summary: 'Run one node of the draft alone, its references taken from inputs (keyed nodeId.path); answers when it ends',
        headers,
        params: NodeRunParams,
        body: NodeRunBody,
        response: { 200: ok(NodeRunResult) },
      },
    },
    async (req) => done(await runSingleNode(ctx, appScope(req), req.params.node_id, req.body.inputs, req.body.run_id)),
  );

  app.post(
    '/:app_id/runs/:run_id/stop',
    {
      schema: { tags, summary: 'Stop a run of the app (stopped: false when it had already ended)', headers, params: RunParams, response: { 200: ok(RunStopResult) } },
    },
    async (req) => {
      const a = await requireApp(ctx, appScope(req));
      const scope = { tenantId: a.tenantId, appId: a.id };
      // A run going on here is stopped at once (its row may still be on its way to the database).
      if (registry.stop(req.params.run_id, scope)) return done({ stopped: true });
      // Another process's run gets the request over the run bus; an ended one answers at once.
      const row = await store.runOf(ctx, a, req.params.run_id);
      return done({ stopped: row.status === 'running' && (await stopRunAnywhere(ctx, req.params.run_id, scope)) });
    },
  );

  app.get(
    '/:app_id/runs/:run_id/events',
    {
      schema: {
        tags,
        summary: "A run's stream again, from any server process: the frames after Last-Event-ID (all without it), live until the run ends",
        headers: RunEventsHeaders,
        params: RunParams,
        response: sse,
      },
    },
    async (req, reply) => {
      const a = await requireApp(ctx, appScope(req));
      // A run of this process may not be stored yet (its first write waits on the embedded database).
      if (!registry.owns(req.params.run_id, { tenantId: a.tenantId, appId: a.id })) await store.runOf(ctx, a, req.params.run_id);
      const last = req.headers['last-event-id'];
      const gone = new AbortController();
      await sendSse(reply, replayRun(ctx, req.params.run_id, last === undefined ? -1 : Number(last), gone.signal), {
        onClientGone: () => gone.abort(),
        onError: (e) => req.log.error({ err: e }, 'run stream failed'),
      });
    },
  );

  app.get(
    '/:app_id/runs',
    {
      schema: {
        tags,
        summary: 'The run log, newest first: period, status and keyword filters',
        headers,
        params: RunAppParams,
        querystring: RunListQuery,
        response: { 200: ok(listPage(RunSummary)) },
      },
    },
    async (req) => done(await store.listRuns(ctx, await requireApp(ctx, appScope(req)), req.query)),
  );

  app.get(
    '/:app_id/runs/:run_id',
    {
      schema: { tags, summary: 'A run with its node executions in order (the trace)', headers, params: RunParams, response: { 200: ok(RunDetail) } },
    },
    async (req) => done(await store.getRunDetail(ctx, await requireApp(ctx, appScope(req)), req.params.run_id)),
  );

  app.get(
    '/:app_id/conversations',
    {
      schema: {
        tags,
        summary: 'Conversations of the app, newest first, with message count and last message time',
        headers,
        params: RunAppParams,
        querystring: ConversationListQuery,
        response: { 200: ok(listPage(ConversationSummary)) },
      },
    },
    async (req) => done(await store.listConversations(ctx, await requireApp(ctx, appScope(req)), req.query)),
  );

  app.get(
    '/:app_id/conversations/:conversation_id/messages',
    {
      schema: {
        tags,
        summary: 'Messages of a conversation, oldest first',
        headers,
        params: ConversationParams,
        querystring: MessageListQuery,
        response: { 200: ok(listPage(ConversationMessage)) },
      },
    },
    async (req) => done(await store.listMessages(ctx, await requireApp(ctx, appScope(req)), req.params.conversation_id, req.query)),
  );

  app.delete(
    '/:app_id/conversations/:conversation_id',
    {
      schema: { tags, summary: 'Delete a conversation and its messages (its runs stay in the log)', headers, params: ConversationParams, response: { 200: ok(z.null()) } },
    },
    async (req) => {
      await store.deleteConversation(ctx, await requireApp(ctx, appScope(req)), req.params.conversation_id);
      return done(null);
    },
  );

  app.get(
    '/:app_id/conversations/:conversation_id/variables',
    {
      schema: { tags, summary: "The conversation's variables (declared by the flow; stored values over defaults)", headers, params: ConversationParams, response: { 200: ok(ConversationVariables) } },
    },
    async (req) => done({ variables: await store.getConversationVariables(ctx, await requireApp(ctx, appScope(req)), req.params.conversation_id) }),
  );

  app.put(
    '/:app_id/conversations/:conversation_id/variables',
    {
      schema: {
        tags,
        summary: "Set some of the conversation's variables; each must be declared by the flow and fit its type",
        headers,
        params: ConversationParams,
        body: ConversationVariablesBody,
        response: { 200: ok(ConversationVariables) },
      },
    },
    async (req) => done({ variables: await store.setConversationVariables(ctx, await requireApp(ctx, appScope(req)), req.params.conversation_id, req.body.variables) }),
  );
};
