// `npm test`: every test, in order — type check, unit, API on embedded PostgreSQL (PGlite), the same
// API tests on a real PostgreSQL server, the client build, Storybook stories as tests in Chromium,
// and the browser end-to-end tests against the real server. Stops at the first failing step.
// `npm test -- unit api` runs only the named steps.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { findChromium } from './tools.mjs';
import { withMariadb } from './with-mariadb.mjs';
import { withPostgres } from './with-postgres.mjs';

const root = path.resolve(import.meta.dirname, '..');
const tmp = path.join(root, '.tmp');
fs.mkdirSync(tmp, { recursive: true });
const bin = (name, file) => path.join(root, 'node_modules', name, file);
const totals = { passed: 0, failed: 0, skipped: 0 };

function run(title, cmd, args, env = {}) {
  const t0 = Date.now();
  console.log(`\n=== ${title} ===`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  console.log(`=== ${title}: ${r.status === 0 ? 'ok' : 'FAILED'} in ${((Date.now() - t0) / 1000).toFixed(1)} s ===`);
  return r.status === 0;
}

function vitest(title, projects, env = {}, extra = []) {
  const out = path.join(tmp, `vitest-${title.replace(/\W+/g, '-')}.json`);
  fs.rmSync(out, { force: true });
  const args = [bin('vitest', 'vitest.mjs'), 'run', ...projects.flatMap((p) => ['--project', p]), ...extra, '--reporter=default', '--reporter=json', `--outputFile.json=${out}`];
  const okRun = run(title, process.execPath, args, env);
  if (fs.existsSync(out)) {
    const j = JSON.parse(fs.readFileSync(out, 'utf8'));
    totals.passed += j.numPassedTests;
    totals.failed += j.numFailedTests;
    totals.skipped += j.numPendingTests + (j.numTodoTests ?? 0);
    if (j.numTotalTests === 0) {
      console.error(`${title}: no test ran`);
      return false;
    }
  }
  return okRun;
}

const ONCE_ON_EMBEDDED = [
  ...['dify-fixture-runs', 'gbi-mysql', 'sandbox', 'sandbox-queue', 'code-python', 'speech'],
  // The embedded database's own thread (its queue's order): the same PGlite whatever DATABASE_URL says.
  'pglite-worker',
  // The HTTP layer and the client: the outbound client, SSE keep-alive, static files, the input rule
  // every request passes, and the client functions parsing the server's real answers.
  ...['http-client', 'sse-keepalive', 'client-static', 'input-rule', 'knowledge-client', 'client-contract', 'distribution-client', 'apps-versions-client'],
  // More client functions parsing the server's real answers (models, tools), and the portal client's
  // reconnect through a cutting proxy (the server's resume from Last-Event-ID on both databases is runs-scale's).
  ...['models-client', 'tools-client', 'portal-reconnect'],
  // Providers' wire protocols against local fakes: the model clients (OpenAI-compatible and Anthropic
  // streams, tool calls, errors), the knowledge embedder, images sent to a vision model, Keycloak's
  // discovery and PKCE (the SSO sign-in's users and sessions are sso.test.ts's, on both).
  ...['model-providers', 'knowledge-embedder', 'vision', 'sso-keycloak'],
  // What leaves the host: the outbound policy (loopback, metadata, DNS rebinding), stdio MCP commands
  // only as the operator allows, HTTP tool functions and MCP servers on the wire.
  ...['security-outbound', 'security-mcp-stdio', 'tools-runtime'],
  // Parsers and shapes: the document extractor's docx/pdf/md parsing, Dify's recorded answer shapes.
  ...['runs-document-extractor', 'public-dify-shapes'],
  // GBI's connectors to other engines (a PostgreSQL source, DuckDB for spreadsheets): the source is a
  // PostgreSQL server whichever database the studio runs on, which only keeps the sessions.
  'gbi',
  // `npm start` as one process and its signals (SIGTERM, SIGUSR2).
  'start-signal',
];

/**
 * The type check beside the unit tests: tsc is one thread and the unit run leaves a core idle while it
 * starts and collects (~20 s of CI's budget). Its output is printed when it ends, as a step of its own.
 */
function typecheckInBackground() {
  const t0 = Date.now();
  const child = spawn(process.execPath, [bin('typescript', 'bin/tsc'), '-p', 'tsconfig.json', '--noEmit'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const done = new Promise((resolve) => child.on('close', (code) => resolve(code)));
  return async () => {
    const code = await done;
    console.log(`\n=== type check (run beside the unit tests) ===\n${out}=== type check: ${code === 0 ? 'ok' : 'FAILED'} in ${((Date.now() - t0) / 1000).toFixed(1)} s ===`);
    return code === 0;
  };
}

const steps = {
  typecheck: () => run('type check', process.execPath, [bin('typescript', 'bin/tsc'), '-p', 'tsconfig.json', '--noEmit']),
  unit: () => vitest('unit', ['unit', 'unit-dom', 'unit-isolated']),
  // A throwaway MariaDB is the MySQL source of tests/api/gbi-mysql.test.ts; a throwaway PostgreSQL server
  // is the one server of the files that talk to one besides the studio's database (tests/api/postgres-server.ts).
  api: () =>
    withMariadb((mysql) => withPostgres((pg) => vitest('api (embedded PostgreSQL)', ['api'], { GBI_MYSQL_URL: mysql, TEST_PG_SERVER_URL: pg }))),
  // Files that test nothing of the application's database run once, on the embedded one (ONCE_ON_EMBEDDED,
  // a reason per group): the Dify fixture runs, GBI's connectors, the sandboxes, the offline voice, the
  // HTTP layer, the client's functions, providers' wire protocols, the outbound policy, parsers.
  'api-pg': () =>
    withPostgres((url) =>
      vitest('api (PostgreSQL server)', ['api'], { DATABASE_URL: url }, ONCE_ON_EMBEDDED.flatMap((f) => ['--exclude', `tests/api/${f}.test.ts`])),
    ),
  // Both builds `npm start` runs: the client (precompressed, with its first-load figures) and the server bundle.
  build: () =>
    run('client build', process.execPath, [bin('vite', 'bin/vite.js'), 'build', '--logLevel', 'warn']) &&
    run('server build', process.execPath, [path.join(root, 'scripts', 'build-server.mjs')]),
  stories: () => vitest('stories (Chromium)', ['storybook'], { CHROMIUM_PATH: findChromium() }),
  e2e: () => vitest('end-to-end (Chromium)', ['e2e'], { CHROMIUM_PATH: findChromium() }),
};

const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
let order = wanted.length ? wanted : Object.keys(steps);
if (order.includes('typecheck') && order.includes('unit')) {
  const finish = typecheckInBackground();
  steps['typecheck+unit'] = async () => {
    const unitOk = await steps.unit();
    return (await finish()) && unitOk;
  };
  order = order.filter((n) => n !== 'typecheck').map((n) => (n === 'unit' ? 'typecheck+unit' : n));
}
const t0 = Date.now();
let failedStep = null;
for (const name of order) {
  if (!steps[name]) {
    console.error(`unknown step ${name}; steps: ${Object.keys(steps).join(', ')}`);
    process.exit(2);
  }
  let ok;
  try {
    ok = await steps[name]();
  } catch (e) {
    console.error(`\n${name}: ${e.message}`);
    ok = false;
  }
  if (!ok) {
    failedStep = name;
    break;
  }
}
console.log(`\nnpm test: ${failedStep ? `FAILED at step '${failedStep}'` : 'all steps passed'} in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
console.log(`Tests: ${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`);
process.exit(failedStep ? 1 : 0);
