import type { FastifyInstance } from 'fastify';

/** Paths logged at debug only: the built client's files (100-odd on an editor's first load) and the probes (every few seconds). */
const quiet = (path: string) => !(path.startsWith('/api/') || path.startsWith('/v1/') || path === '/config.json');

/**
 * One short JSON line per request once it is answered, in place of Fastify's two (the whole request
 * on arrival, the response on completion): `{"reqId":"req-7","method":"GET","url":"/api/v1/…",
 * "status":200,"ms":3.1,"msg":"request"}`. API requests at info (the default level: an access log),
 * static files and the health probes at debug. The query string is left out: it is noise here, and
 * a link may carry a value in it that has no place in a log. Failures keep their own lines (the
 * error handler logs a 5xx with its error).
 */
export function registerRequestLog(app: FastifyInstance) {
  app.addHook('onResponse', async (req, reply) => {
    const url = req.url.split('?')[0]!;
    const line = { method: req.method, url, status: reply.statusCode, ms: Math.round(reply.elapsedTime * 10) / 10 };
    if (quiet(url)) req.log.debug(line, 'request');
    else req.log.info(line, 'request');
  });
}
