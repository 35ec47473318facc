// The server process: `npm start` (scripts/start.mjs imports the build of this file, dist-server/main.mjs)
// and `npm run dev` (tsx, from sources).
import { readSettings } from './settings';
import { createStudio, type Studio } from './server';
import { DEFAULT_TENANT_ID } from '../../schemas/common';
import { loggerOptions } from './http/log-options';
import { startupLine, type StartTimes } from './startup-line';
import { memoryLine } from './memory';

// Every static import above is loaded and evaluated by now: the time since the process began.
const modulesLoaded = performance.now();
/** scripts/start.mjs marks the end of its build check (absent under `npm run dev`). */
const buildChecked = performance.getEntriesByName('weft:build-checked')[0]?.startTime;

/** Longest a shutdown may take before the process exits anyway (a run's write or a driver that hangs). */
const STOP_DEADLINE_MS = 15_000;

let studio: Studio | undefined;
let stopping: Promise<void> | undefined;

/**
 * SIGTERM and SIGINT (Ctrl+C): stop cleanly, then exit 0 (see Studio.close: refuse new requests, stop
 * and store the runs, hand knowledge tasks back, close the database). A second signal exits at once;
 * a signal during the start stops as soon as the studio exists.
 */
function onSignal(signal: NodeJS.Signals) {
  if (stopping) {
    console.error(`\n  ${signal} again: exiting without waiting.`);
    process.exit(1);
  }
  console.log(`\n  ${signal}: stopping (runs in progress are stopped and stored, knowledge tasks go back to the queue)…`);
  stopping = stop();
}

async function stop() {
  const deadline = setTimeout(() => {
    console.error(`  Not stopped within ${STOP_DEADLINE_MS / 1000} s: exiting.`);
    process.exit(1);
  }, STOP_DEADLINE_MS);
  deadline.unref();
  try {
    while (!studio) await new Promise((r) => setTimeout(r, 50));
    await studio.close();
    console.log('  Stopped.');
    process.exit(0);
  } catch (e) {
    console.error('  Stopping failed:', e);
    process.exit(1);
  }
}

process.on('SIGTERM', onSignal);
process.on('SIGINT', onSignal);
// `kill -USR2 <pid>`: one line saying where the memory is, per thread (memory.ts; bench:start reads it).
process.on('SIGUSR2', () => {
  if (studio) memoryLine(studio).then(console.log, (e: unknown) => console.error('  The memory report failed:', e));
});

const settings = readSettings();
studio = await createStudio(settings, {
  logger: settings.logLevel === 'silent' ? false : loggerOptions(settings.logLevel),
});
if (!stopping) {
  const listenStart = performance.now();
  await studio.app.listen({ host: settings.host, port: settings.port });
  const times: StartTimes = { modules: modulesLoaded, buildCheck: buildChecked, phases: studio.phases, listen: performance.now() - listenStart, total: performance.now() };
  const addr = studio.app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : settings.port;
  const host = settings.host === '0.0.0.0' || settings.host === '::' ? 'localhost' : settings.host;
  const lines = [
    '',
    `  Weft is running at http://${host}:${port}/`,
    `  Database: ${studio.database.kind === 'pglite' ? `embedded PostgreSQL (PGlite) in ${settings.dataDir}` : 'PostgreSQL server (DATABASE_URL)'}`,
  ];
  if (studio.seeded.generatedPassword) {
    lines.push(
      `  First admin login: tenant "Default tenant" (${DEFAULT_TENANT_ID}), user "${studio.seeded.username}", password "${studio.seeded.generatedPassword}"`,
      '  The password is shown only this once: change it after signing in (user menu > Change password).',
    );
  } else if (studio.seeded.created) {
    lines.push(`  First admin login: user "${studio.seeded.username}" with the password from WEFT_ADMIN_PASSWORD`);
  } else {
    lines.push(`  Admin user: "${studio.seeded.username}" (password as set on first start)`);
  }
  if (settings.httpAllowPrivate) {
    lines.push(
      '  Warning: WEFT_HTTP_ALLOW_PRIVATE is deprecated. It opens the private ranges to users\' connections (not loopback,',
      '  link-local or cloud metadata); name what they may reach in WEFT_OUTBOUND_ALLOW (e.g. 10.20.0.0/16,db.corp:1521) instead.',
    );
  }
  lines.push(startupLine(times), '  Stop with Ctrl+C (or SIGTERM).');
  console.log(lines.join('\n') + '\n');
}
