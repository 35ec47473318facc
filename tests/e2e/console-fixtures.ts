/**
 * Shared set-up of the console browser tests (issue 28): a project space with one of everything a
 * console page lists (a custom tool with a function whose json body nests, a knowledge base with a
 * processed text unit, a prompt, a credential, a database, a second member), made through the
 * browser's own session the way the screens call the API, and helpers to read a page's layout.
 */
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { ADMIN, sessionApi, sharedBrowser } from './server';

/**
 * Chromium as a user sees it: Playwright hides scrollbars in headless mode by default, which would
 * make every "scrolls visibly" check and every screenshot of a scrolling table lie.
 */
export function launchWithScrollbars(): Promise<Browser> {
  return sharedBrowser([], ['--hide-scrollbars']);
}

/** An ordinary member of the seeded project space (a common user, no system role). */
export const MEMBER = { username: 'lin', password: 'Passw0rd123', realName: 'Lin Ordinary' };

export interface Seeded {
  workspaceId: string;
  toolId: string;
  functionId: string;
  datasetId: string;
  documentId: string;
  promptId: string;
}

async function ok(page: Page, method: string, url: string, body?: unknown): Promise<Record<string, unknown>> {
  const r = await sessionApi(page, method, url, body);
  if (r.status !== 200) throw new Error(`${method} ${url} answered ${r.status}: ${JSON.stringify(r.data)}`);
  return r.data;
}

const row = (param_key: string, data_type: string, extra: Record<string, unknown> = {}) => ({
  param_name: '',
  param_key,
  description: '',
  data_type,
  optional_values: '',
  default_value: '',
  is_not_null: false,
  ...extra,
});

/** Uploads a text file as a knowledge file from the page (multipart, as the upload widget does). */
async function uploadText(page: Page, name: string, text: string): Promise<string> {
  return page.evaluate(
    async ({ name, text }) => {
      const session = JSON.parse(localStorage.getItem('weft.session') ?? '{}').state;
      const form = new FormData();
      form.append('biz_type', 'dataset');
      form.append('file', new Blob([text], { type: 'text/plain' }), name);
      const r = await fetch('/api/v1/console/files/upload', {
        method: 'POST',
        headers: { Authorization: `Bearer ${session.accessToken}`, 'X-Tenant-Id': session.tenantId, 'X-Workspace-Id': session.workspaceId },
        body: form,
      });
      const json = await r.json();
      if (json.code !== 0) throw new Error(JSON.stringify(json));
      return json.data.id as string;
    },
    { name, text },
  );
}

/**
 * Seeds the signed-in user's current project space (the page must be inside it) and waits until the
 * knowledge unit is processed.
 */
export async function seedConsole(page: Page): Promise<Seeded> {
  const workspaceId = await page.evaluate(() => JSON.parse(localStorage.getItem('weft.session') ?? '{}').state.workspaceId as string);
  const tool = await ok(page, 'POST', '/api/v1/console/tools', { name: 'Order service for the shop front (v2)', intro: 'Creates and reads orders' });
  const fn = await ok(page, 'POST', `/api/v1/console/tools/${tool.id}/functions`, {
    name: 'create_order',
    description: 'Creates an order',
    method: 'POST',
    url: 'https://orders.example.com/orders/{shop}',
    params: [row('shop', 'string', { request_type: 'query_path', is_not_null: true }), row('limit', 'integer', { request_type: 'query_params' })],
    body_subtype: 'json',
    body: [
      row('data', 'object', {
        request_type: 'body',
        request_subtype: 'json',
        is_array: false,
        children: [row('customer', 'object', { request_type: 'body', request_subtype: 'json', is_array: false, children: [row('email', 'string', { request_type: 'body', request_subtype: 'json', is_array: false })] }), row('items', 'string', { request_type: 'body', request_subtype: 'json', is_array: true })],
      }),
    ],
  });
  const dataset = await ok(page, 'POST', '/api/v1/console/datasets', { name: 'Product handbook', description: 'What the support team answers from' });
  const fileId = await uploadText(page, 'handbook.txt', 'Giant pandas live in the mountains of central China.\n\nOrders ship within two days.\n\nReturns are free for thirty days.');
  const created = await ok(page, 'POST', `/api/v1/console/datasets/${dataset.id}/documents`, {
    file_ids: [fileId],
    process_rule: { mode: 'general', max_length: 800, overlap: 0, separators: ['\n\n'], remove_extra_spaces: true, remove_urls_emails: false },
  });
  const documentId = (created as unknown as { id: string }[])[0]!.id;
  // A plain loop: expect.poll only works inside a test, and this runs in beforeAll.
  for (let waited = 0; ; waited += 500) {
    const doc = await ok(page, 'GET', `/api/v1/console/datasets/${dataset.id}/documents/${documentId}`);
    if (doc.status === 'completed') break;
    if (waited > 60_000) throw new Error(`the knowledge unit was not processed in 60 s: ${JSON.stringify(doc)}`);
    await page.waitForTimeout(500);
  }
  const prompt = await ok(page, 'POST', '/api/v1/console/prompts', { name: 'Support reply', description: 'Answers a customer', content: 'You are a helpful support agent. Answer {question} politely and briefly, in the language of the question.' });
  await ok(page, 'POST', '/api/v1/console/credentials', { identifier: 'orders-key', ak: 'ak-123', sk: 'sk-secret-123', description: 'Key of the order service' });
  await ok(page, 'POST', '/api/v1/console/databases', { name: 'warehouse', type: 'postgresql', host: 'db.example.com', account: 'reader', password: 'pw' });
  const member = await ok(page, 'POST', '/api/v1/admin/users', MEMBER);
  await ok(page, 'POST', `/api/v1/console/workspaces/${workspaceId}/members`, { user_ids: [member.id], role: 'ordinary_member' });
  return { workspaceId, toolId: String(tool.id), functionId: String(fn.id), datasetId: String(dataset.id), documentId, promptId: String(prompt.id) };
}

/**
 * A context signed in (the seeded admin unless `who` says otherwise) in the given language (the
 * language switcher's storage key).
 */
export async function signInAs(
  browser: Browser,
  url: string,
  lang: 'zh' | 'en',
  viewport: { width: number; height: number },
  who: { username: string; password: string } = ADMIN,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport, locale: lang === 'zh' ? 'zh-CN' : 'en-US' });
  await context.addInitScript((l) => localStorage.setItem('weft.lang', l), lang);
  const page = await context.newPage();
  page.setDefaultTimeout(40_000);
  await page.goto(`${url}/login`);
  await page.getByTestId('login-username').fill(who.username);
  await page.getByTestId('login-password').fill(who.password);
  await page.getByTestId('login-submit').click();
  await page.waitForURL((u) => u.pathname === '/operation');
  return { context, page };
}

/** The console's pages of a seeded project space, by a short name. */
export function consolePages(s: Seeded): Record<string, string> {
  const ws = `/operation/workspace/${s.workspaceId}`;
  const kq = `dataset_id=${s.datasetId}`;
  return {
    home: '/operation',
    apps: `${ws}/app`,
    tools: `${ws}/tool`,
    toolDetail: `${ws}/tool/${s.toolId}`,
    function: `${ws}/tool/${s.toolId}/capability/${s.functionId}`,
    knowledge: `${ws}/knowledge`,
    units: `${ws}/knowledge-unit?${kq}`,
    unitAdd: `${ws}/knowledge-unit-add?${kq}`,
    unitAddTable: `${ws}/knowledge-unit-add-table?${kq}`,
    unitDetails: `${ws}/knowledge-unit-details?${kq}&document_id=${s.documentId}`,
    database: `${ws}/database`,
    certificate: `${ws}/certificate`,
    prompts: `${ws}/prompt`,
    promptEdit: `${ws}/prompt-add/${s.promptId}`,
    promptNew: `${ws}/prompt-add`,
    members: `${ws}/member`,
    models: '/operation/system/model',
    users: '/operation/system/user',
    tenants: '/operation/system/tenant',
    datasetTasks: '/operation/system/dataset',
    security: '/operation/system/security',
    personal: '/personal/personal-center',
  };
}

/** Records every toast the page shows (title and description) in `window.__toasts`, from the first paint. */
export async function recordToasts(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const w = window as unknown as { __toasts: string[] };
    w.__toasts = [];
    const seen = new WeakSet<Element>();
    new MutationObserver(() => {
      for (const el of Array.from(document.querySelectorAll('[data-slot="toast"]'))) {
        if (seen.has(el)) continue;
        seen.add(el);
        w.__toasts.push((el as HTMLElement).innerText.replace(/\s+/g, ' ').trim());
      }
    }).observe(document, { subtree: true, childList: true });
  });
}

/** The toasts recorded since the page loaded (see {@link recordToasts}), after the calls settle. */
export async function toastsOf(page: Page): Promise<string[]> {
  // Requests counted from openPage on; a page never opened through it waits as Playwright does.
  if (inflight.has(page)) await settle(page);
  else await page.waitForLoadState('networkidle').catch(() => undefined);
  // A toast is shown after its answer is handled: a moment after the last call ends.
  await page.waitForTimeout(200);
  return page.evaluate(() => (window as unknown as { __toasts: string[] }).__toasts);
}

const inflight = new WeakMap<Page, Set<unknown>>();

/** Counts the page's requests under way (from the first call on; later calls reuse the count). */
export function trackRequests(page: Page): Set<unknown> {
  let open = inflight.get(page);
  if (open) return open;
  const under = new Set<unknown>();
  open = under;
  inflight.set(page, under);
  page.on('request', (r) => {
    // A stream (SSE) stays open by design: it is not a call the page waits for.
    if (r.resourceType() !== 'eventsource') under.add(r);
  });
  page.on('requestfinished', (r) => under.delete(r));
  page.on('requestfailed', (r) => under.delete(r));
  return under;
}

/**
 * Waits until the page has had no request under way for `quietMs`, then for two frames: the calls a
 * page starts have answered and rendered. Like Playwright's 'networkidle' (500 ms of quiet, then a
 * 300 ms pause here before) at a fraction of the wait per page; gives up after `capMs` (a long poll).
 */
export async function settle(page: Page, quietMs = 200, capMs = 10_000): Promise<void> {
  const open = trackRequests(page);
  const until = Date.now() + capMs;
  let quietSince = open.size === 0 ? Date.now() : 0;
  while (Date.now() < until) {
    await new Promise((r) => setTimeout(r, 25));
    if (open.size > 0) quietSince = 0;
    else if (!quietSince) quietSince = Date.now();
    else if (Date.now() - quietSince >= quietMs) break;
  }
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/** Goes to a console path and waits for its page body and for the calls it starts to settle. */
export async function openPage(page: Page, url: string, path: string): Promise<void> {
  trackRequests(page);
  await page.goto(`${url}${path}`);
  await page.locator('[data-slot="page"]').first().waitFor();
  await settle(page);
}

export interface TableFit {
  /** A short description of the table (its label or first header cell). */
  name: string;
  /** How much wider the table is than the box it can be seen in (px; 0 when it fits). */
  overflow: number;
  /** Whether the box scrolls horizontally with a scrollbar the user can see (not an overlay one). */
  scrollsVisibly: boolean;
  /** Whether the table's own box sticks out of the page (the page itself would scroll sideways). */
  outsideViewport: boolean;
}

/**
 * Every table on the page: does it fit in the box that clips it, and where it does not, does that box
 * scroll with a visible scrollbar? Scrollbars are only measured when the browser shows them (launch
 * without `--hide-scrollbars`, see {@link launchWithScrollbars}).
 */
export async function tableFits(page: Page): Promise<TableFit[]> {
  return page.evaluate(() => {
    const out: TableFit[] = [];
    const vw = document.documentElement.clientWidth;
    for (const table of Array.from(document.querySelectorAll('table'))) {
      const rect = table.getBoundingClientRect();
      if (rect.width === 0 || rect.height === 0) continue;
      let box: HTMLElement | null = table.parentElement;
      while (box && box !== document.body) {
        const ox = getComputedStyle(box).overflowX;
        if (ox !== 'visible') break;
        box = box.parentElement;
      }
      const clip = box && box !== document.body ? box : document.documentElement;
      const overflow = Math.max(0, Math.round(clip.scrollWidth - clip.clientWidth));
      const style = getComputedStyle(clip);
      const borders = parseFloat(style.borderTopWidth) + parseFloat(style.borderBottomWidth);
      const scrollbar = clip.offsetHeight - clip.clientHeight - borders;
      const scrolls = style.overflowX === 'auto' || style.overflowX === 'scroll';
      const name = table.getAttribute('aria-label') ?? table.querySelector('th')?.textContent?.trim() ?? '?';
      const clipRect = clip.getBoundingClientRect();
      out.push({ name, overflow, scrollsVisibly: scrolls && scrollbar >= 6, outsideViewport: clipRect.right > vw + 1 || rect.left < -1 });
    }
    return out;
  });
}

/**
 * How much a scrollbar stands out from what is around it: the largest colour difference (0–255) in
 * the strip of the scroll box where its horizontal scrollbar is drawn, read from a real screenshot
 * (a faint overlay-like bar scores low, a bar one can see scores high).
 */
export async function scrollbarContrast(page: Page, tableIndex: number): Promise<number> {
  const strip = await page.evaluate((index) => {
    const table = Array.from(document.querySelectorAll('table')).filter((t) => t.getBoundingClientRect().width > 0)[index];
    let box = table?.parentElement ?? null;
    while (box && getComputedStyle(box).overflowX === 'visible') box = box.parentElement;
    if (!box) return null;
    box.scrollIntoView({ block: 'center' });
    const r = box.getBoundingClientRect();
    const st = getComputedStyle(box);
    const bar = box.offsetHeight - box.clientHeight - parseFloat(st.borderTopWidth) - parseFloat(st.borderBottomWidth);
    const left = r.left + parseFloat(st.borderLeftWidth);
    return { x: left, y: r.bottom - parseFloat(st.borderBottomWidth) - bar, width: box.clientWidth, height: bar };
  }, tableIndex);
  if (!strip || strip.height < 1) return 0;
  const png = await page.screenshot({ clip: strip });
  return page.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = img.width;
    canvas.height = img.height;
    const ctx = canvas.getContext('2d')!;
    ctx.drawImage(img, 0, 0);
    const d = ctx.getImageData(0, 0, img.width, img.height).data;
    let min = 255;
    let max = 0;
    for (let i = 0; i < d.length; i += 4) {
      const lum = 0.299 * d[i]! + 0.587 * d[i + 1]! + 0.114 * d[i + 2]!;
      min = Math.min(min, lum);
      max = Math.max(max, lum);
    }
    return Math.round(max - min);
  }, png.toString('base64'));
}
