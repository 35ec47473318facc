import fs from 'node:fs';
import path from 'node:path';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import { jsonSchemaTransform, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { responseSerializer } from './http/stored-answer';
import swagger from '@fastify/swagger';
import fastifyStatic from '@fastify/static';
import { DEFAULT_TENANT_ID } from '../../schemas/common';
import { ErrorCode } from '../../schemas/errors';
import type { ServerContext } from './context';
import { registerErrorHandling } from './errors';
import { registerAuth } from './auth';
import { routeTree } from './routes';
import { publicApiRoutes } from './routes/public';
import { IMMUTABLE_CACHE } from './http/cache';
import { registerInputRule } from './http/input-rule';
import { registerRequestLog } from './http/request-log';
import { codeChannels } from './login/senders';
import { refuseWhileStopping, registerHealth, type ServerState } from './routes/health';
import { markRequest, traceRequest, tracing } from './runs/first-token-trace';

export interface BuildOptions {
  /** Pino logger options; false for tests. */
  logger?: boolean | object;
  /** The studio's state the health probes report (server.ts sets `stopping` when it shuts down). */
  state?: ServerState;
}

/** WEFT_TRUST_PROXY as Fastify takes it: a hop count becomes "trust the first n hops" (proxy-addr's reading). */
function trustProxyOption(v: boolean | number | string): boolean | string | ((address: string, hop: number) => boolean) {
  return typeof v === 'number' ? (_address, hop) => hop < v : v;
}

/** Builds the whole server (API, OpenAPI document, /config.json, the built client). Does not listen. */
export async function buildApp(ctx: ServerContext, opts: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: opts.logger ?? false,
    bodyLimit: 10 * 1024 * 1024,
    // Off unless WEFT_TRUST_PROXY says which proxies set X-Forwarded-For: request.ip is the address
    // the sign-in limits count, and a client could otherwise claim a new one with every attempt.
    trustProxy: trustProxyOption(ctx.settings.trustProxy),
    // Connections are kept alive (also after an SSE stream); Node's server.close() left some idle
    // kept-alive connections open (up to the 72 s keep-alive timeout), holding the close: close ends
    // them all, after the preClose hooks have stopped the streams.
    forceCloseConnections: true,
    // Fastify logs two lines per request ("incoming request", "request completed") with the request
    // and response objects; ./http/request-log.ts writes one short line instead.
    logController: new LogController({ disableRequestLogging: true }),
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  // Zod's check of every answer, except answers of stored, already validated data (stored-answer.ts).
  app.setSerializerCompiler(responseSerializer);
  registerErrorHandling(app);
  // No NUL or lone surrogate in any string of any request (schemas/text.ts), for every route.
  registerInputRule(app);
  // No hook at all when nothing is logged (the tests, WEFT_LOG_LEVEL=silent).
  if (opts.logger) registerRequestLog(app);
  const state = opts.state ?? { stopping: false };
  // Before auth: once stopping, requests are refused before they read anything.
  refuseWhileStopping(app, state);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Weft API', version: '1', description: 'Generated from the zod schemas the server validates with.' },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer' },
          // The public API (/v1): an app's key, or a project space's for its MCP endpoint (schemas/public-api.ts).
          AppKey: { type: 'http', scheme: 'bearer', bearerFormat: 'wk-…', description: 'An API key of the app (console: the app\'s API tab), or of the project space for its MCP endpoint' },
        },
      },
      security: [{ bearer: [] }],
    },
    // Routes declared as '/' under a prefix are documented without the trailing slash.
    transform: (input) => {
      const out = jsonSchemaTransform(input);
      return { ...out, url: out.url.length > 1 ? out.url.replace(/\/$/, '') : out.url };
    },
  });
  app.get('/api/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  // After swagger, which documents only the routes declared after it.
  registerHealth(app, ctx, state);

  // `BENCH_BREAKDOWN=1 npm run bench:portal` only (runs/first-token-trace.ts): no hook otherwise.
  if (tracing()) app.addHook('onRequest', async (req) => traceRequest(req));
  registerAuth(app, ctx);
  if (tracing()) {
    app.addHook('preParsing', async (req) => markRequest(req, 'auth'));
    app.addHook('preHandler', async (req) => markRequest(req, 'handler'));
  }

  app.get('/config.json', { schema: { hide: true } }, async () => ({
    authMode: ctx.settings.authMode,
    // Single sign-on: the login page's button, and whether the account and password form stays (break-glass).
    sso:
      ctx.settings.authMode === 'local'
        ? undefined
        : { providerName: ctx.settings.oidcProviderName, appCode: ctx.settings.ssoAppCode, localLogin: ctx.settings.localLogin },
    // Verification-code sign-in: the channels a sender is configured for (none: the tabs stay hidden).
    codeLogin: codeChannels(ctx.settings),
    defaultTenantId: DEFAULT_TENANT_ID,
    upload: { maxCount: ctx.settings.uploadMaxCount, maxMb: ctx.settings.uploadMaxMb },
    // The code node's inspector shows how long code may run on this server.
    sandbox: { maxTimeoutSeconds: Math.floor(ctx.sandbox.limits.maxTimeoutMs / 1000) },
    tokenRefreshLeewaySeconds: 5,
    version: process.env.npm_package_version ?? '0.1.0',
  }));

  await app.register(routeTree(ctx), { prefix: '/api/v1' });
  // The public API: its own group, auth (API keys) and error shape (Dify's; OpenAI's on its paths).
  await app.register(publicApiRoutes(ctx), { prefix: '/v1' });

  // @fastify/static wants an absolute root; WEFT_CLIENT_DIR may be relative to the working directory.
  const clientDir = path.resolve(ctx.settings.clientDir);
  const hasClient = fs.existsSync(path.join(clientDir, 'index.html'));
  if (hasClient) {
    const assetsDir = path.join(clientDir, 'assets') + path.sep;
    const page = path.join(clientDir, 'index.html');
    const pageFiles = new Set([page, `${page}.br`, `${page}.gz`]);
    await app.register(fastifyStatic, {
      root: clientDir,
      prefix: '/',
      wildcard: false,
      index: false,
      // The page itself goes through the not-found handler below, which decides its framing headers.
      allowedPath: (pathName) => pathName !== '/index.html',
      // The build writes a brotli (.br) and a gzip (.gz) variant beside each text file
      // (scripts/vite-client-build.mjs): sent as they are, with Content-Encoding and Vary, to a
      // browser that accepts them; no compression at run time.
      preCompressed: true,
      // Vite names every file under assets/ by its content's hash: a browser keeps it for good
      // (the editor's layout worker, 1.4 MB, is then not fetched again on each open). The page
      // names the current hashes: asked for again each time (a 304 when unchanged).
      setHeaders: (reply, file) => {
        if (file.startsWith(assetsDir)) {
          reply.header('cache-control', IMMUTABLE_CACHE);
          // Validators of a file never asked for again: ~75 bytes on each of the ~100 files of a
          // first load (issue 28: 250 KB on the wire, headers included).
          reply.removeHeader('etag');
          reply.removeHeader('last-modified');
          // Nor ranges: a hashed file is small and fetched whole, and a range of a precompressed
          // body means nothing to a browser (22 more bytes on each file of a first load).
          reply.removeHeader('accept-ranges');
        } else if (pageFiles.has(file)) reply.header('cache-control', 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((req, reply) => {
    const url = req.url.split('?')[0];
    if (url.startsWith('/api/') || !hasClient || (req.method !== 'GET' && req.method !== 'HEAD')) {
      return reply.status(404).send({ code: ErrorCode.ROUTE_NOT_FOUND, msg: `No route ${req.method} ${url}`, data: null });
    }
    // Client-side routes: the single-page app decides (it has its own /404).
    if (!embeddable(url, req.query as Record<string, unknown>)) denyFraming(reply);
    return reply.type('text/html').sendFile('index.html');
  });
  return app;
}

/**
 * Clickjacking: no page may be framed by another site, except the portal's chrome-less chat (the
 * embed snippets: /portal/chat/{appId}) and the sign-in it sends an unsigned user to. Inside the
 * frame the single-page app navigates without new documents, so the page's own headers decide.
 */
function embeddable(url: string, query: Record<string, unknown>): boolean {
  if (url.startsWith('/portal/chat/')) return true;
  const next = query.redirect_uri;
  return url === '/login' && typeof next === 'string' && next.startsWith('/portal/chat/');
}

function denyFraming(reply: { header(name: string, value: string): unknown }) {
  reply.header('content-security-policy', "frame-ancestors 'none'");
  reply.header('x-frame-options', 'DENY');
}
