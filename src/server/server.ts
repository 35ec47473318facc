import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { openDatabase, type Database } from './db/client';
import { configureVectorCache, vectorCacheOf } from './knowledge/vector-cache';
import { buildApp } from './app';
import type { Settings } from './settings';
import { seed, type SeedResult } from './services/seed';
import { ensureKey } from './security/keys';
import { createTokenService } from './security/tokens';
import { createOutboundPolicy } from './security/outbound-policy';
import type { ServerContext } from './context';
import { createCodeSandbox, sandboxOptions } from './sandbox';
import { createPluginHost } from './plugins/host';
import { loadBuiltinKinds } from './plugins/builtins';
import { closeMcpClients } from './tools/runtime';
import { sweepOrphanedRuns } from './runs/sweep';
import { localBus, pgBus } from './runs/bus';
import { shareCacheNotices } from './cache-notices';
import { runEventLog } from './runs/event-log';
import { startKnowledgeWorkers } from './knowledge/worker';
import { startJobs } from './jobs/boss';
import { startPasses } from './jobs/passes';
import { startRenderWorkers } from './digital-human/render-jobs';
import { warmPublicApi } from './public/warm';
import { warmRuns } from './runs/warm';
import type { ServerState } from './routes/health';

/** How a start spent its time, in ms (printed by main.ts; `npm run bench:start` reads it). */
export interface StartupPhases {
  /** Opening the database: PGlite's WASM start and data directory, or the server's pool. */
  databaseOpen: number;
  /** Comparing the journal with the database, and migrating when it lags. */
  migrations: number;
  /** How many migrations this start applied (0 on an up-to-date database). */
  migrated: number;
  /** The first start's seed, the keys, ending interrupted runs. */
  data: number;
  /** The node kinds' registry: waiting for the built-in kinds' modules (loaded during the database's open), installed packages. */
  plugins: number;
  /** Building the server: Fastify, its plugins and every route (the API's schemas, OpenAPI). */
  routes: number;
}

export interface Studio {
  app: FastifyInstance;
  database: Database;
  ctx: ServerContext;
  seeded: SeedResult;
  phases: StartupPhases;
  /**
   * Stops cleanly: refuses new requests (503 SYSTEM-1503), stops the runs in progress and stores
   * them, hands running knowledge tasks back to the queue, ends the workers, closes the database.
   */
  close(): Promise<void>;
}

export interface StudioOptions {
  /** Pino logger options; false (the default) logs nothing. */
  logger?: boolean | object;
  /** A data-directory dump (tar) the embedded database starts from. */
  loadDataDir?: Blob | Uint8Array;
  /** The embedded database in memory, not in the data directory. */
  inMemory?: boolean;
  /**
   * False: no code-sandbox worker is started with the studio; the first code run starts it (the API
   * tests' studios: 0.2–0.4 s of CPU per test file, most of which run no code). `npm start` warms.
   */
  warmSandbox?: boolean;
}

/** Opens the database (migrating it when it lags), seeds the first start, and builds the server. */
export async function createStudio(settings: Settings, opts: StudioOptions = {}): Promise<Studio> {
  // One worker and its QuickJS module are started now, alongside the database's start, and ready by
  // the time the server listens: the first code node after a start would otherwise wait hundreds of
  // milliseconds for them. The sandbox keeps that worker (`keepWarm`), so a quiet spell does not undo it.
  const sandbox = createCodeSandbox(sandboxOptions(settings));
  const sandboxWarm = opts.warmSandbox === false ? Promise.resolve(sandbox.readyCold()) : sandbox.warm();
  // The built-in node kinds' modules (some 80 chunks) load on this thread while the database opens on its own.
  const builtinKinds = loadBuiltinKinds();
  builtinKinds.catch(() => undefined); // awaited below; a failed open must not leave it unhandled
  const database = await openDatabase({
    databaseUrl: settings.databaseUrl,
    dataDir: settings.databaseUrl || opts.inMemory ? undefined : path.join(path.resolve(settings.dataDir), 'pgdata'),
    loadDataDir: opts.loadDataDir,
    sharedBuffers: settings.pgSharedBuffers,
    inWorker: settings.pgWorker,
  }).catch(async (e: unknown) => {
    await sandbox.close();
    throw e;
  });
  const db = database.db;
  const dataStart = performance.now();
  configureVectorCache(db, settings.vectorCacheMb);
  const seeded = await seed(db, settings.adminUser, settings.adminPassword);
  const jwtSecret = await ensureKey(db, 'jwt_secret');
  const secretKey = await ensureKey(db, 'secret_key');
  // Runs a stopped server left `running` end as interrupted before anyone reads the log (then every 5 minutes: jobs/passes.ts).
  await sweepOrphanedRuns(database).catch((e) => console.error('[weft] ending interrupted runs failed:', e));
  // Several processes on one PostgreSQL server hear each other's run stops and events (issue 34).
  const bus = settings.databaseUrl ? await pgBus(settings.databaseUrl, db, (e) => console.error('[weft] run bus:', e)) : localBus();
  // …and drop the cached rows another process changed (cache-notices.ts).
  const leaveCacheNotices = shareCacheNotices(bus, (e) => console.error('[weft] cache notice:', e));
  const pluginsStart = performance.now();
  // Installed packages: this process sees another's install within 5 s (the table's stamp).
  const plugins = await createPluginHost({ db, dataDir: () => settings.dataDir, reloadMs: 5000, shared: database.kind !== 'pglite', builtins: builtinKinds });
  const routesStart = performance.now();
  const ctx: ServerContext = {
    db,
    settings,
    tokens: createTokenService(db, jwtSecret, settings.accessTokenTtl, settings.refreshTokenTtl),
    secretKey,
    // One process owns the embedded database: its lists change only through invalidate(), never unseen.
    outbound: createOutboundPolicy({ db, settings, ...(database.kind === 'pglite' ? { reloadMs: Infinity } : {}) }),
    sandbox,
    exclusiveDb: database.kind === 'pglite',
    bus,
    plugins,
  };
  const state: ServerState = { stopping: false };
  const app = await buildApp(ctx, { logger: opts.logger, state });
  const phases: StartupPhases = {
    databaseOpen: database.timings.openMs,
    migrations: database.timings.migrationsMs,
    migrated: database.timings.migrated,
    data: pluginsStart - dataStart,
    plugins: routesStart - pluginsStart,
    routes: performance.now() - routesStart,
  };
  // Why an allowed destination could not be reached stays in the server's log, not in the answer.
  const outboundLog = app.log.child({ module: 'outbound' });
  ctx.outbound.setLogger((detail) => outboundLog.warn(detail, 'outbound connection failed or refused'));
  if (settings.httpAllowPrivate) {
    app.log.warn('WEFT_HTTP_ALLOW_PRIVATE is deprecated: it opens the private ranges (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7), never loopback, link-local or metadata; list what users may reach in WEFT_OUTBOUND_ALLOW instead');
  }
  await warmPublicApi(ctx, (e) => console.error('[weft] warming the public API failed:', e));
  // The run path's code is compiled and recent drafts' plans cached once the server listens (runs/warm.ts): not on the start's path.
  let warming: Promise<void> = Promise.resolve();
  app.addHook('onListen', () => {
    warming = new Promise<void>((resolve) => setImmediate(resolve)).then(() => warmRuns(ctx, (e) => console.error('[weft] warming the run path failed:', e)));
  });
  await sandboxWarm;
  // Background work on pg-boss (jobs/): knowledge tasks (ingestion, graph analysis, Q&A, segment
  // indexes) taken by any process, and the scheduled passes (URL refreshes, the run sweep, the
  // overview's settled days, kept in the background, not by the first call of a period).
  const jobs = await startJobs(database, {
    pollMs: settings.jobsPollMs,
    leaseSeconds: settings.jobsLeaseSeconds,
    maintenanceSeconds: settings.jobsMaintenanceSeconds,
    log: (e) => console.error('[weft] job queue:', e),
  });
  // WEFT_JOBS_WORK=false: this process queues work for the others and takes none.
  const knowledge = settings.jobsWork ? startKnowledgeWorkers(ctx, jobs, { log: (e) => console.error('[weft] knowledge worker:', e) }) : { stop() {} };
  await startPasses(ctx, database, jobs, (e) => console.error('[weft] background pass failed:', e), { work: settings.jobsWork });
  // Broadcast videos of digital humans render on the job queue too.
  if (settings.jobsWork) startRenderWorkers(ctx, jobs, { concurrency: settings.renderConcurrency, log: (e) => console.error('[weft] video renderer:', e) });
  // Vector search keeps each searched unit's vectors in memory: load them now, not at the first search.
  const vectors = vectorCacheOf(db);
  vectors.warm().catch((e) => console.error('[weft] loading knowledge vectors failed:', e));
  return {
    app,
    database,
    ctx,
    seeded,
    phases,
    async close() {
      state.stopping = true;
      ctx.plugins.close();
      await app.close();
      await warming;
      // Running knowledge tasks and video renders go back to the queue; a pass under way ends before the database closes.
      await jobs.stop();
      knowledge.stop();
      // The last run events (the runs' ends, written as the server stopped them) go in before the bus and the database close.
      await runEventLog(ctx).flush();
      leaveCacheNotices();
      await bus.close();
      await vectors.close();
      await ctx.sandbox.close();
      await closeMcpClients(ctx);
      await database.close();
    },
  };
}
