/**
 * Cheaper set-up for browser tests that are not about signing in or creating apps: a user signs in
 * through the login page once per file, and every later context starts signed in (a session of its
 * own from the login API, no login page, no console home on the way); apps with their draft are made
 * through the API and opened straight in their editor; screenshots for a human to look at are taken
 * only when asked for (WEFT_E2E_SNAPS=1), since nothing in a run reads them.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { DEFAULT_TENANT_ID } from '../../schemas/common';
import { signInAs } from './console-fixtures';
import { ADMIN, openFirstWorkspaceApps, snap } from './server';

type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;

export interface OpenOptions {
  viewport?: { width: number; height: number };
  /** The browser's locale (what the console follows when no language was chosen). */
  locale?: string;
  /** The language chosen in the console (`weft.lang`), when the test needs one. */
  lang?: 'zh' | 'en';
}

export interface SignedIn {
  /** The session as the console keeps it (`weft.session`) after the sign-in, tokens aside. */
  readonly state: StorageState;
  /** The session's project space (the first one when signed in with `workspace`), or null. */
  readonly workspaceId: string | null;
  /** A storage state of this user with a session of its own (in `lang` when given), for a context to start signed in. */
  freshState(lang?: 'zh' | 'en'): Promise<StorageState>;
  /** A new context of this user, signed in with a session of its own, and a page in it (on about:blank). */
  open(options?: OpenOptions): Promise<Opened>;
}

export interface Opened {
  context: BrowserContext;
  page: Page;
  /** One console API call with the context's session from here (the page may be anywhere): status and `data`. */
  api(method: string, path: string, body?: unknown): Promise<{ status: number; data: Record<string, unknown> }>;
}

/**
 * Signs `who` in through the login page once (in the first project space when `workspace`, so that
 * the session's API calls go there); {@link SignedIn.open} then opens signed-in contexts without it.
 * Each context gets its own token pair: contexts never share a refresh token (the server ends a
 * session whose used refresh token comes again).
 * @example const admin = await signInOnce(browser, studio.url, ADMIN, { workspace: true });
 * const { context, page } = await admin.open({ viewport: { width: 1400, height: 900 } });
 */
export async function signInOnce(
  browser: Browser,
  url: string,
  who: { username: string; password: string } = ADMIN,
  opts: { workspace?: boolean; then?: (page: Page) => Promise<void> } = {},
): Promise<SignedIn> {
  // Its `weft.lang` is left out of the states handed on (freshState): a context chooses its own language.
  const { context, page } = await signInAs(browser, url, 'en', { width: 1280, height: 900 }, who);
  if (opts.workspace) await openFirstWorkspaceApps(page);
  // What the file sets up with this page (seeding through the browser's session) before it closes.
  await opts.then?.(page);
  const state = await context.storageState();
  await context.close();
  const origin = new URL(url).origin;
  const session = JSON.parse(state.origins.find((o) => o.origin === origin)?.localStorage.find((e) => e.name === 'weft.session')?.value ?? '{"state":{}}').state as { tenantId?: string; workspaceId?: string };
  const freshState = async (lang?: 'zh' | 'en'): Promise<StorageState> => {
    const r = await fetch(`${url}/api/v1/console/base/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ tenantId: DEFAULT_TENANT_ID, ...who }) });
    const json = (await r.json()) as { code: number; data: { access_token: string; refresh_token: string; expires_in: number } };
    if (json.code !== 0) throw new Error(`signing ${who.username} in answered ${JSON.stringify(json)}`);
    const origins = state.origins.map((o) => {
      if (o.origin !== origin) return o;
      const localStorage = o.localStorage
        .filter((e) => e.name !== 'weft.lang')
        .map((e) => {
          if (e.name !== 'weft.session') return e;
          const saved = JSON.parse(e.value) as { state: Record<string, unknown> };
          saved.state = { ...saved.state, accessToken: json.data.access_token, refreshToken: json.data.refresh_token, tokenExpiresAt: Date.now() + json.data.expires_in * 1000 };
          return { name: e.name, value: JSON.stringify(saved) };
        });
      if (lang) localStorage.push({ name: 'weft.lang', value: lang });
      return { ...o, localStorage };
    });
    return { cookies: state.cookies, origins };
  };
  return {
    state,
    workspaceId: session.workspaceId ?? null,
    freshState,
    async open(options = {}) {
      const storageState = await freshState(options.lang);
      const accessToken = (JSON.parse(storageState.origins.find((o) => o.origin === origin)!.localStorage.find((e) => e.name === 'weft.session')!.value) as { state: { accessToken: string } }).state.accessToken;
      const opened = await browser.newContext({
        viewport: options.viewport ?? { width: 1280, height: 900 },
        locale: options.locale ?? (options.lang === 'zh' ? 'zh-CN' : 'en-US'),
        storageState,
      });
      const page = await opened.newPage();
      page.setDefaultTimeout(40_000);
      const api: Opened['api'] = async (method, path, body) => {
        const headers: Record<string, string> = { Authorization: `Bearer ${accessToken}`, 'X-Tenant-Id': session.tenantId ?? DEFAULT_TENANT_ID };
        if (session.workspaceId) headers['X-Workspace-Id'] = session.workspaceId;
        if (body !== undefined) headers['Content-Type'] = 'application/json';
        const answer = await fetch(`${url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
        const parsed = (await answer.json().catch(() => ({}))) as { data?: Record<string, unknown> };
        return { status: answer.status, data: parsed.data ?? (parsed as Record<string, unknown>) };
      };
      return { context: opened, page, api };
    },
  };
}

/**
 * Makes an app through the API in the session's project space, saves `document` as its draft and
 * opens its editor (flow apps in /agent-flow, agent teams in /agent-team): what a test about the
 * editor needs, without the app list, the create dialog and a reload. Answers the app's id.
 */
export async function openAppWithDraft(opened: Opened, url: string, app: { name: string; mode: 'chatflow' | 'workflow' | 'agent_team' }, document: unknown): Promise<string> {
  const ok = async (method: string, path: string, body?: unknown) => {
    const r = await opened.api(method, path, body);
    if (r.status !== 200) throw new Error(`${method} ${path} answered ${r.status}: ${JSON.stringify(r.data)}`);
    return r.data;
  };
  const made = await ok('POST', '/api/v1/console/apps', { name: app.name, description: app.name, type: app.mode, icon: { icon: app.mode === 'workflow' ? 'workflow' : 'bot' } });
  const appId = made.id as string;
  const draft = await ok('GET', `/api/v1/console/apps/${appId}/workflow`);
  await ok('PUT', '/api/v1/console/apps/workflow', { app_id: appId, base_revision: draft.revision, document });
  await opened.page.goto(`${url}/operation/app/${appId}/${app.mode === 'agent_team' ? 'agent-team' : 'agent-flow'}/base`);
  return appId;
}

/** Whether screenshots for a human to look at are wanted (WEFT_E2E_SNAPS=1). */
export const SNAPS = process.env.WEFT_E2E_SNAPS === '1';

/** {@link snap} when {@link SNAPS}: a screenshot under test-results/ to look at; nothing otherwise. */
export async function look(page: Page, name: string): Promise<void> {
  if (SNAPS) await snap(page, name);
}

/** A pause that only a screenshot needs (an animation to end before the picture): none without {@link SNAPS}. */
export async function pauseForPicture(page: Page, ms: number): Promise<void> {
  if (SNAPS) await page.waitForTimeout(ms);
}
