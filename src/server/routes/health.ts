import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../../schemas/common';
import { ErrorCode } from '../../../schemas/errors';
import { Liveness, Readiness } from '../../../schemas/health';
import type { ServerContext } from '../context';
import { ping } from '../db/client';

/** What the probes report that the context does not hold. Set by the studio (server.ts). */
export interface ServerState {
  /** A shutdown began: requests are refused, work is being finished or handed back. */
  stopping: boolean;
}

/** A database that has not answered `select 1` within this long counts as unavailable. */
const PING_TIMEOUT_MS = 2000;
const PROBES = new Set(['/healthz', '/readyz']);
const tags = ['health'];
const NotReady = z.object({ code: z.literal(ErrorCode.NOT_READY), msg: z.string(), data: Readiness });

async function databaseAnswers(ctx: ServerContext): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([ping(ctx.db), new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), PING_TIMEOUT_MS)))]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Once a shutdown began, every request but the probes is refused: `503 SYSTEM-1503` with
 * `Connection: close`, so a client or proxy retries elsewhere while the runs in progress are
 * stopped and stored.
 */
export function refuseWhileStopping(app: FastifyInstance, state: ServerState) {
  app.addHook('onRequest', async (req, reply) => {
    if (!state.stopping || PROBES.has(req.url.split('?')[0]!)) return;
    reply.header('connection', 'close');
    return reply.status(503).send({ code: ErrorCode.NOT_READY, msg: 'The server is stopping', data: null });
  });
}

/** `GET /healthz` and `GET /readyz` (public, outside /api). */
export function registerHealth(app: FastifyInstance, ctx: ServerContext, state: ServerState) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.get(
    '/healthz',
    { schema: { tags, summary: 'Liveness: the process is up and answering (no token; reads nothing)', security: [], response: { 200: ok(Liveness) } } },
    async () => ({ code: 0 as const, msg: 'success', data: { status: 'up' as const, uptime_s: Math.round(process.uptime() * 10) / 10 } }),
  );
  typed.get(
    '/readyz',
    {
      schema: {
        tags,
        summary: 'Readiness: the database answers and a code sandbox is ready (no token); 503 SYSTEM-1503 while starting or stopping',
        security: [],
        response: { 200: ok(Readiness), 503: NotReady },
      },
    },
    async (_req, reply) => {
      const database = (await databaseAnswers(ctx)) ? ('ready' as const) : ('unavailable' as const);
      const sandbox = ctx.sandbox.warmed ? ('ready' as const) : ('starting' as const);
      const data = { ready: database === 'ready' && sandbox === 'ready' && !state.stopping, database, sandbox, stopping: state.stopping };
      if (data.ready) return { code: 0 as const, msg: 'success', data };
      return reply.status(503).send({ code: ErrorCode.NOT_READY, msg: state.stopping ? 'The server is stopping' : 'The server is not ready yet', data });
    },
  );
}
