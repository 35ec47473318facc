/**
 * Apps as services in Chromium against the real server (issue 22): the api tab's keys (create, the
 * secret seen once, the masked list, revoke; the key works on /v1 until revoked), the chat bubble of
 * /embed.js on a plain HTML page served from another origin (it opens the embedded chat, which asks
 * for a sign-in inside the frame), and the overview's charts once the app has runs.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FlowDocument } from '../../schemas/flow';
import { ADMIN, createAppInUi, launchBrowser, openFirstWorkspaceApps, releaseBrowser, saveDraftInBrowser, sessionApi, signIn, snap, startStudio, type RunningStudio } from './server';

let studio: RunningStudio;
let browser: Browser;

beforeAll(async () => {
  studio = await startStudio();
  browser = await launchBrowser();
});

afterAll(async () => {
  await releaseBrowser(browser);
  await studio?.stop();
});

/** start(topic) → template → end(out): runs without a model. */
const workflowDoc = (): FlowDocument => ({
  schemaVersion: 1,
  mode: 'workflow',
  nodes: [
    { id: 'start', kind: 'start', kindVersion: 1, title: '', position: { x: 80, y: 200 }, config: { variables: [{ name: 'topic', label: 'Topic', type: 'text', required: true, options: [], allowed_extensions: [] }] } },
    { id: 'tpl', kind: 'template-transform', kindVersion: 1, title: '', position: { x: 420, y: 200 }, config: { inputs: [{ name: 'topic', selector: ['start', 'topic'] }], template: 'On {{ topic }}' } },
    { id: 'end', kind: 'end', kindVersion: 1, title: '', position: { x: 760, y: 200 }, config: { outputs: [{ name: 'out', selector: ['tpl', 'output'] }] } },
  ],
  edges: [
    { id: 'start-source-tpl-target', source: 'start', sourceHandle: 'source', target: 'tpl', targetHandle: 'target' },
    { id: 'tpl-source-end-target', source: 'tpl', sourceHandle: 'source', target: 'end', targetHandle: 'target' },
  ],
  variables: { env: [], conversation: [] },
  notes: '',
});

/** start → answer with a fixed reply: a chat app that runs without a model. */
const chatDoc = (): FlowDocument => ({
  schemaVersion: 1,
  mode: 'chatflow',
  nodes: [
    { id: 'start', kind: 'start', kindVersion: 1, title: '', position: { x: 80, y: 200 }, config: { variables: [] } },
    { id: 'answer', kind: 'answer', kindVersion: 1, title: '', position: { x: 420, y: 200 }, config: { answer: 'Hello from Acme! You asked: {{#sys.query#}}' } },
  ],
  edges: [{ id: 'start-source-answer-target', source: 'start', sourceHandle: 'source', target: 'answer', targetHandle: 'target' }],
  variables: { env: [], conversation: [] },
  notes: '',
});

/** A /v1 call with an app key from the page (as a customer's server would make it). */
function publicApi(page: Page, key: string, method: string, url: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  return page.evaluate(
    async ({ key, method, url, body }) => {
      const r = await fetch(url, { method, headers: { Authorization: `Bearer ${key}`, ...(body ? { 'Content-Type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
      return { status: r.status, json: await r.json().catch(() => ({})) };
    },
    { key, method, url, body },
  );
}

async function publish(page: Page, appId: string, version: string): Promise<void> {
  const r = await sessionApi(page, 'POST', `/api/v1/console/apps/${appId}/publish`, { version, description: '' });
  if (r.status !== 200) throw new Error(`publishing answered ${r.status}: ${JSON.stringify(r.data)}`);
}

/** Serves one HTML page from a temporary directory on its own port: another origin than the studio. */
async function staticSite(html: string): Promise<{ url: string; close(): Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'weft-embed-'));
  fs.writeFileSync(path.join(dir, 'index.html'), html);
  const server = http.createServer((req, res) => {
    if (req.url === '/' || req.url === '/index.html') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(fs.readFileSync(path.join(dir, 'index.html')));
    } else res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    // "localhost", not 127.0.0.1: another site than the studio's, as a customer's page would be.
    url: `http://localhost:${port}/`,
    close: async () => {
      await new Promise((r) => server.close(r));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

describe('the api tab', () => {
  it('creates a key whose secret is shown once, lists it masked, and revokes it (then /v1 answers 401)', async () => {
    const { context, page } = await signIn(browser, studio.url, { width: 1400, height: 1000 });
    await openFirstWorkspaceApps(page);
    const appId = await createAppInUi(page, { name: 'Keyed flow', description: 'Called from code', mode: 'workflow' });
    await saveDraftInBrowser(page, appId, workflowDoc());
    await publish(page, appId, 'v1.0.0');

    await page.getByTestId('editor-tabs').getByRole('link', { name: 'API access' }).click();
    await page.waitForURL((u) => u.pathname.endsWith('/agent-flow/api'));
    const api = page.getByTestId('api-page');
    await expect.poll(() => api.getByTestId('docs-version').textContent()).toContain('v1.0.0');
    expect(await api.getByTestId('endpoint-run-curl').textContent()).toContain('"topic": "Topic"');

    await api.getByTestId('key-create').click();
    const create = page.getByTestId('key-create-dialog');
    await create.getByTestId('key-name').fill('Backend');
    await create.getByTestId('key-create-submit').click();
    const secretDialog = page.getByTestId('key-secret-dialog');
    const secret = await secretDialog.getByTestId('key-secret').inputValue();
    expect(secret).toMatch(/^wk-[A-Za-z0-9_-]{40}$/);
    await snap(page, 'api-01-secret-once');
    // Escape does not lose the secret; its own button closes it.
    await page.keyboard.press('Escape');
    expect(await secretDialog.count()).toBe(1);
    await secretDialog.getByTestId('key-secret-done').click();
    await expect.poll(() => secretDialog.count()).toBe(0);

    const rows = api.locator('[data-testid^="key-row-"]');
    await expect.poll(() => rows.count()).toBe(1);
    const row = await rows.first().textContent();
    expect(row).toContain('Backend');
    expect(row).toContain(`${secret.slice(0, 7)}…${secret.slice(-4)}`);
    expect(row).toContain('Never used');
    expect(await page.content()).not.toContain(secret);
    await snap(page, 'api-02-tab');

    // The key works on the public API; after a reload the list shows the secret nowhere either.
    const params = await publicApi(page, secret, 'GET', `${studio.url}/v1/parameters`);
    expect(params.status).toBe(200);
    await page.reload();
    await expect.poll(() => rows.count()).toBe(1);
    expect(await page.content()).not.toContain(secret);

    await rows.first().getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('alertdialog', { name: 'Revoke key "Backend"?' }).getByRole('button', { name: 'Revoke' }).click();
    await expect.poll(() => rows.count()).toBe(0);
    expect((await publicApi(page, secret, 'GET', `${studio.url}/v1/parameters`)).status).toBe(401);
    await context.close();
  });
});

describe('embedding', () => {
  it('adds a chat bubble to a plain page on another origin; it opens the embedded chat, which asks for a sign-in', async () => {
    const { context, page } = await signIn(browser, studio.url, { width: 1280, height: 900 });
    await openFirstWorkspaceApps(page);
    const appId = await createAppInUi(page, { name: 'Embedded helper', description: 'On a web page', mode: 'chatflow' });
    await saveDraftInBrowser(page, appId, chatDoc());
    await publish(page, appId, 'v1.0.0');
    // The embedded chat serves the app to those it is distributed to (here: every user of the tenant).
    const distributed = await sessionApi(page, 'POST', `/api/v1/console/apps/${appId}/distribution`, { platform: 'portal' });
    expect(distributed.status).toBe(200);
    await page.getByTestId('editor-tabs').getByRole('link', { name: 'API access' }).click();
    await page.waitForURL((u) => u.pathname.endsWith('/agent-flow/api'));
    await page.getByTestId('embed-position-left').click();
    const snippet = (await page.getByTestId('embed-bubble').textContent())!;
    expect(snippet).toBe(`<script src="${studio.url}/embed.js" data-app-id="${appId}" data-position="left" defer></script>`);
    await context.close();

    // A customer's page, on another origin, with the copied snippet.
    const site = await staticSite(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Acme support</title></head>
<body style="font-family: sans-serif; margin: 40px"><h1>Acme support</h1><p>Questions? Ask our assistant.</p>${snippet}</body></html>`);
    const visitor = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    try {
      const customer = await visitor.newPage();
      const errors: string[] = [];
      customer.on('pageerror', (e) => errors.push(e.message));
      customer.setDefaultTimeout(40_000);
      const script = customer.waitForResponse((r) => r.url() === `${studio.url}/embed.js`);
      await customer.goto(site.url);
      const served = await script;
      expect(served.status()).toBe(200);
      expect(served.headers()['content-type']).toMatch(/javascript/);

      // The bubble sits bottom-left (open shadow root: the locators pierce it).
      const bubble = customer.getByRole('button', { name: 'Open chat' });
      await bubble.waitFor();
      const box = (await bubble.boundingBox())!;
      expect(box.x).toBeLessThan(100);
      expect(box.y).toBeGreaterThan(900 - 120);
      expect(await customer.locator('iframe').count()).toBe(0);

      await bubble.click();
      const frameEl = customer.locator('iframe[title="Chat"]');
      await frameEl.waitFor();
      expect(await frameEl.getAttribute('src')).toBe(`${studio.url}/portal/chat/${appId}`);
      // Not signed in on this site: the frame shows the sign-in, which leads back to the chat.
      const frame = customer.frameLocator('iframe[title="Chat"]');
      await frame.getByTestId('login-username').fill(ADMIN.username);
      await frame.getByTestId('login-password').fill(ADMIN.password);
      await frame.getByTestId('login-submit').click();
      await expect.poll(() => customer.frames().find((f) => f.url().startsWith(studio.url))?.url()).toBe(`${studio.url}/portal/chat/${appId}`);
      // The portal's chat, without its chrome, answers in the frame.
      await frame.getByTestId('portal-embed').waitFor();
      await frame.getByRole('textbox').first().fill('Where is my parcel?');
      await frame.getByRole('textbox').first().press('Enter');
      await frame.getByText('Hello from Acme! You asked: Where is my parcel?').first().waitFor();
      await snap(customer, 'api-03-embed-open');
      // Chromium denies this third-party frame its storage: the page still starts (the session lives in memory).
      expect(errors).toEqual([]);

      // The bubble closes the panel again.
      await customer.getByRole('button', { name: 'Close chat' }).click();
      await expect.poll(() => frameEl.isVisible()).toBe(false);
    } finally {
      await visitor.close();
      await site.close();
    }
  });
});

describe('the overview tab', () => {
  it('draws the charts of an app with runs, with their totals', async () => {
    const { context, page } = await signIn(browser, studio.url, { width: 1400, height: 1100 });
    await openFirstWorkspaceApps(page);
    const appId = await createAppInUi(page, { name: 'Busy flow', description: 'Has runs', mode: 'workflow' });
    await saveDraftInBrowser(page, appId, workflowDoc());
    await publish(page, appId, 'v1.0.0');
    const key = await sessionApi(page, 'POST', `/api/v1/console/apps/${appId}/api-keys`, { name: 'Runner' });
    expect(key.status).toBe(200);
    const secret = key.data.secret as string;
    for (let i = 0; i < 5; i++) {
      const run = await publicApi(page, secret, 'POST', `${studio.url}/v1/workflows/run`, { inputs: { topic: `t${i}` }, response_mode: 'blocking', user: `user-${i % 2}` });
      expect(run.status).toBe(200);
    }

    await page.getByTestId('editor-tabs').getByRole('link', { name: 'Overview' }).click();
    await page.waitForURL((u) => u.pathname.endsWith('/agent-flow/overview'));
    const overview = page.getByTestId('overview-page');
    await expect.poll(() => overview.getByTestId('total-runs').textContent()).toBe('5');
    expect(await overview.getByTestId('total-activeUsers').textContent()).toBe('2');
    // Every chart drew its SVG.
    for (const id of ['runs', 'activeUsers', 'tokens', 'latency', 'errorRate']) {
      await expect.poll(() => overview.getByTestId(`chart-${id}`).locator('svg').count()).toBe(1);
    }
    await snap(page, 'api-04-overview');
    await overview.getByRole('radio', { name: 'Today' }).click();
    await expect.poll(() => overview.locator('[data-period="today"]').count()).toBe(1);
    expect(await overview.getByTestId('total-runs').textContent()).toBe('5');

    // The charts take the dark theme's tokens.
    await page.evaluate(() => localStorage.setItem('weft.theme', 'dark'));
    await page.reload();
    await expect.poll(() => overview.getByTestId('chart-latency').locator('svg').count()).toBe(1);
    await snap(page, 'api-05-overview-dark');
    await context.close();
  });
});
