import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../../../schemas/common';
import {
  PortalApp,
  PortalAppDetail,
  PortalListQuery,
  PortalParams,
  PortalRunParams,
  WebChatBody,
  webPage,
  WebRun,
  WebRunQuery,
  WebWorkflowBody,
} from '../../../../schemas/portal';
import { RunStopResult, StreamResumeHeaders } from '../../../../schemas/run-api';
import { requireCaller, type ServerContext } from '../../context';
import { RUN_STREAM_COALESCE_MS, sendSse } from '../../http/sse';
import { runRegistry } from '../../runs/registry';
import { listPortalApps, portalDetail, portalTarget } from '../../runs/portal-access';
import { portalResume } from '../../runs/portal-resume';
import { withRequestTrace } from '../../runs/first-token-trace';
import { portalStream, startPortalChat, startPortalWorkflow, stopPortalRun, type PortalRun } from '../../runs/portal-run';
import { getWebRun, listWebRuns } from '../../services/portal-usage';
import { portalCharacterOf, withCharacter } from '../../digital-human/characters';
import type { FastifyReply, FastifyRequest } from 'fastify';

const tags = ['web: portal'];
const done = <T>(data: T) => ({ code: 0 as const, msg: 'success', data });
const sse = {
  200: z
    .string()
    .describe('text/event-stream: `run_created`, the run events of schemas/run.ts, and for chat a last `message_end` (schemas/portal.ts WebMessageEnd), one `event:`/`data:` frame each'),
};

/**
 * WEB portal (spec 7.6; schemas/portal.ts): the apps this user may use and their runs. Signed-in
 * users of any role; no X-Workspace-Id. An app the user may not use (another tenant, not distributed
 * to them, inactive) answers VALIDATION-1000 like a missing one. Runs are the distributed version's,
 * recorded with source `portal`; a client that disconnects does not stop a run (stop is explicit).
 */
export const webPortalRoutes = (ctx: ServerContext): FastifyPluginAsyncZod => async (app) => {
  const registry = runRegistry(ctx);
  // On shutdown runs are stopped and stored (before the database closes).
  app.addHook('preClose', async () => registry.stopAll());

  async function stream(req: FastifyRequest, reply: FastifyReply, run: PortalRun) {
    await sendSse(reply, portalStream(run), { coalesceMs: RUN_STREAM_COALESCE_MS, onError: (e) => req.log.error({ err: e }, 'portal run stream failed') });
  }
  const log = (req: FastifyRequest) => (e: unknown) => req.log.error({ err: e }, 'storing a portal run failed');

  app.get(
    '/portal',
    { schema: { tags, summary: 'The apps this user may use (distributed to the tenant portal or to their project space), newest first', querystring: PortalListQuery, response: { 200: ok(webPage(PortalApp)) } } },
    async (req) => done(await listPortalApps(ctx, requireCaller(req), req.query)),
  );

  app.get(
    '/portal/:portal_id',
    { schema: { tags, summary: "One app the user may use: its distributed version's features, start form and conversation variables", params: PortalParams, response: { 200: ok(PortalAppDetail) } } },
    async (req) => {
      const target = await portalTarget(ctx, requireCaller(req), req.params.portal_id);
      return done(withCharacter(portalDetail(target), await portalCharacterOf(ctx, target.card.id)));
    },
  );

  app.post(
    '/portal/:portal_id/chat-messages',
    {
      schema: {
        tags,
        summary: 'Send a message to a chat app (the distributed version) and stream the run as SSE; without conversation_id a conversation starts',
        params: PortalParams,
        body: WebChatBody,
        response: sse,
      },
    },
    async (req, reply) => withRequestTrace(req, async () => stream(req, reply, await startPortalChat(ctx, requireCaller(req), req.params.portal_id, req.body, log(req)))),
  );

  app.post(
    '/portal/:portal_id/workflow-runs',
    { schema: { tags, summary: "Run a workflow app (the distributed version) with the form's values, checked against its start fields; streams the run as SSE", params: PortalParams, body: WebWorkflowBody, response: sse } },
    async (req, reply) => stream(req, reply, await startPortalWorkflow(ctx, requireCaller(req), req.params.portal_id, req.body, log(req))),
  );

  app.post(
    '/portal/:portal_id/runs/:run_id/stop',
    { schema: { tags, summary: "Stop one of the user's own runs (stopped: false when it had already ended)", params: PortalRunParams, response: { 200: ok(RunStopResult) } } },
    async (req) => done(await stopPortalRun(ctx, requireCaller(req), req.params.portal_id, req.params.run_id)),
  );

  app.get(
    '/portal/:portal_id/runs/:run_id/events',
    {
      schema: {
        tags,
        summary: "One of the user's own runs streamed again, from any server process: the frames after Last-Event-ID (all without it), live until the run ends",
        params: PortalRunParams,
        headers: StreamResumeHeaders,
        response: sse,
      },
    },
    async (req, reply) => {
      const last = req.headers['last-event-id'];
      const gone = new AbortController();
      const frames = await portalResume(ctx, requireCaller(req), req.params.portal_id, req.params.run_id, last === undefined ? -1 : Number(last), gone.signal);
      await sendSse(reply, frames, { onClientGone: () => gone.abort(), onError: (e) => req.log.error({ err: e }, 'portal run stream failed') });
    },
  );

  app.get(
    '/portal/:portal_id/runs',
    { schema: { tags, summary: "The user's own portal runs of the app, newest first", params: PortalParams, querystring: WebRunQuery, response: { 200: ok(webPage(WebRun)) } } },
    async (req) => done(await listWebRuns(ctx, requireCaller(req), req.params.portal_id, req.query)),
  );

  app.get(
    '/portal/:portal_id/runs/:run_id',
    { schema: { tags, summary: "One of the user's runs with its steps (titles and states only)", params: PortalRunParams, response: { 200: ok(WebRun) } } },
    async (req) => done(await getWebRun(ctx, requireCaller(req), req.params.portal_id, req.params.run_id)),
  );
};
