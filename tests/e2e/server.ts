import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
// @ts-expect-error plain ESM helper shared with the scripts
import { CHROMIUM_ARGS, findChromium } from '../../scripts/tools.mjs';
import { staleReason } from '../../scripts/build-check.mjs';

export const ADMIN = { username: 'admin', password: 'Admin12345' };

export interface RunningStudio {
  url: string;
  dataDir: string;
  stop(): Promise<void>;
}

const root = path.resolve(import.meta.dirname, '..', '..');

/**
 * A data directory made once per `npm test` by the e2e project's global setup (migrated database,
 * seeded admin) and copied for each studio: every file then starts on a ready database instead of
 * paying for the migrations and the admin's password hash again (≈ 22 files × several seconds).
 */
export const TEMPLATE_DIR = path.join(root, '.tmp', 'e2e-template');

/**
 * Starts the real server (the same entry as `npm start`, serving the built client in dist/) on a
 * free port with a temporary data directory, and waits for the URL it prints. Its outbound network
 * policy is closed as in production (WEFT_OUTBOUND_ALLOW, WEFT_MCP_STDIO_COMMANDS and
 * WEFT_HTTP_ALLOW_PRIVATE of the caller's environment are not passed on): a test that talks to a
 * local fake opens exactly it through `env`. The data directory starts as a copy of
 * {@link TEMPLATE_DIR} when the global setup made one.
 */
export async function startStudio(env: Record<string, string> = {}): Promise<RunningStudio> {
  if (!fs.existsSync(path.join(root, 'dist', 'index.html'))) {
    throw new Error('dist/index.html is missing: run `npx vite build` first (npm test does it).');
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'weft-e2e-'));
  if (fs.existsSync(path.join(TEMPLATE_DIR, 'ready'))) fs.cpSync(path.join(TEMPLATE_DIR, 'data'), dataDir, { recursive: true });
  const server = await spawnServer(dataDir, env);
  return {
    url: server.url,
    dataDir,
    async stop() {
      await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Makes {@link TEMPLATE_DIR}: one start of the server on an empty directory, then a clean stop. */
export async function makeTemplate(): Promise<void> {
  fs.rmSync(TEMPLATE_DIR, { recursive: true, force: true });
  const dataDir = path.join(TEMPLATE_DIR, 'data');
  fs.mkdirSync(dataDir, { recursive: true });
  const server = await spawnServer(dataDir, {});
  await server.stop();
  fs.writeFileSync(path.join(TEMPLATE_DIR, 'ready'), new Date().toISOString());
}

/**
 * The built server (dist-server/, what `npm start` runs, built by npm test's build step) when it is
 * up to date with its sources, so the tests drive what ships; otherwise the sources through tsx.
 */
function serverEntry(): string[] {
  return staleReason(root, 'server') === null ? [path.join(root, 'dist-server', 'main.mjs')] : ['--import', 'tsx', path.join(root, 'src/server/main.ts')];
}

async function spawnServer(dataDir: string, env: Record<string, string>): Promise<{ url: string; stop(): Promise<void> }> {
  const child: ChildProcess = spawn(process.execPath, serverEntry(), {
    cwd: root,
    env: {
      ...process.env,
      WEFT_DATA_DIR: dataDir,
      WEFT_PORT: '0',
      WEFT_HOST: '127.0.0.1',
      WEFT_ADMIN_USER: ADMIN.username,
      WEFT_ADMIN_PASSWORD: ADMIN.password,
      WEFT_CLIENT_DIR: path.join(root, 'dist'),
      WEFT_LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      WEFT_OUTBOUND_ALLOW: '',
      WEFT_MCP_STDIO_COMMANDS: '',
      WEFT_HTTP_ALLOW_PRIVATE: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    // A server that did not start in time is stopped: left running it went on migrating and
    // competing for the CPU with the retry's own studio (seen as a dozen orphans at load 60).
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start:\n${output}`));
    }, 60_000);
    const onData = (b: Buffer) => {
      output += b.toString();
      const m = output.match(/running at (http:\/\/[^\s/]+)\//);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (b: Buffer) => (output += b.toString()));
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  return {
    url,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
    },
  };
}

/**
 * The browsers of this vitest worker, by launch options. The e2e project runs its files with
 * `isolate: false`, so this module (and playwright-core) is loaded once per worker and the files a
 * worker runs one after the other share one Chromium (a launch and close is ~0.85 s of CPU, the module graph
 * another): each file still works in browser contexts of its own, closed by {@link releaseBrowser}.
 * Chromium exits with the worker (Playwright's exit handler, and its pipe closes).
 */
const browsers = new Map<string, Promise<Browser>>();

/** This worker's Chromium for these options, launched on first use (or again after a crash). */
export async function sharedBrowser(extraArgs: string[] = [], ignoreDefaultArgs: string[] = []): Promise<Browser> {
  const key = JSON.stringify([extraArgs, ignoreDefaultArgs]);
  const known = await browsers.get(key)?.catch(() => null);
  if (known?.isConnected()) return known;
  const launching = chromium.launch({ executablePath: findChromium(), args: [...CHROMIUM_ARGS, ...extraArgs], headless: true, ignoreDefaultArgs });
  browsers.set(key, launching);
  return launching;
}

/** Chromium with `extraArgs` (shared by this worker's files: see {@link sharedBrowser}). */
export function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  return sharedBrowser(extraArgs);
}

/**
 * A file's end with a shared browser: closes every context the file opened (their pages, streams and
 * timers stop), so the next file starts on an empty browser; the browser itself stays for it.
 */
export async function releaseBrowser(browser: Browser | undefined): Promise<void> {
  if (!browser?.isConnected()) return;
  await Promise.all(browser.contexts().map((c) => c.close().catch(() => undefined)));
}

/** Saves a screenshot under test-results/ (kept by CI logs for a look). */
export async function snap(page: Page, name: string) {
  const dir = path.resolve('test-results');
  fs.mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
}

/**
 * A new browser context and page signed in as the seeded admin, on /operation.
 * @example const { context, page } = await signIn(browser, studio.url, { width: 1400, height: 900 });
 */
export async function signIn(browser: Browser, url: string, viewport: { width: number; height: number }): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport, locale: 'en-US' });
  const page = await context.newPage();
  page.setDefaultTimeout(40_000);
  await page.goto(`${url}/`);
  await page.waitForURL((u) => u.pathname === '/login');
  await page.getByTestId('login-username').fill(ADMIN.username);
  await page.getByTestId('login-password').fill(ADMIN.password);
  await page.getByTestId('login-submit').click();
  await page.waitForURL((u) => u.pathname === '/operation');
  return { context, page };
}

/**
 * One console API call with the browser's own session (as the screens make it): its status and
 * the envelope's `data`.
 * @example const draft = await sessionApi(page, 'GET', `/api/v1/console/apps/${appId}/workflow`);
 */
export async function sessionApi(page: Page, method: string, url: string, body?: unknown): Promise<{ status: number; data: Record<string, unknown> }> {
  return page.evaluate(
    async ({ method, url, body }) => {
      const session = JSON.parse(localStorage.getItem('weft.session') ?? '{}').state;
      const headers: Record<string, string> = { Authorization: `Bearer ${session.accessToken}`, 'X-Tenant-Id': session.tenantId, 'X-Workspace-Id': session.workspaceId };
      if (body !== undefined) headers['Content-Type'] = 'application/json';
      const r = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      const json = await r.json().catch(() => ({}));
      return { status: r.status, data: (json.data ?? json) as Record<string, unknown> };
    },
    { method, url, body },
  );
}

/**
 * On a project space's app list: creates an app through the create dialog, opens it and waits
 * for its editor (agent-team apps open in /agent-team, agents in the builder /agent-builder, the
 * others in /agent-flow). Answers its id.
 * @example const appId = await createAppInUi(page, { name: 'Help desk', description: 'Triage', mode: 'agent_team' });
 */
export async function createAppInUi(page: Page, app: { name: string; description: string; mode: 'agent' | 'chatflow' | 'workflow' | 'agent_team' }): Promise<string> {
  await page.getByTestId('app-create').click();
  await page.getByTestId('app-name').fill(app.name);
  await page.getByTestId('app-description').fill(app.description);
  await page.getByTestId('app-type').locator(`[data-mode="${app.mode}"]`).click();
  await page.getByTestId('app-dialog-submit').click();
  await page.getByTestId('app-card').filter({ hasText: app.name }).getByTestId('app-open').click();
  const editor = app.mode === 'agent_team' ? 'agent-team' : app.mode === 'agent' ? 'agent-builder' : 'agent-flow';
  await page.waitForURL((u) => new RegExp(`^/operation/app/[^/]+/${editor}/base$`).test(u.pathname));
  return new URL(page.url()).pathname.split('/')[3]!;
}

/** From /operation, the first project space's app list. */
export async function openFirstWorkspaceApps(page: Page): Promise<void> {
  await page.getByTestId('workspace-card').first().getByTestId('workspace-link').click();
  await page.waitForURL((u) => /^\/operation\/workspace\/[^/]+\/app$/.test(u.pathname));
}

/**
 * Saves an app's draft with the browser's own session (the calls the editor makes: read the
 * revision, save on it); throws unless the save answered 200.
 */
export async function saveDraftInBrowser(page: Page, appId: string, document: unknown): Promise<void> {
  const draft = await sessionApi(page, 'GET', `/api/v1/console/apps/${appId}/workflow`);
  const saved = await sessionApi(page, 'PUT', '/api/v1/console/apps/workflow', { app_id: appId, base_revision: draft.data.revision, document });
  if (saved.status !== 200) throw new Error(`saving the draft answered ${saved.status}: ${JSON.stringify(saved.data)}`);
}
