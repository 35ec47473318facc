/**
 * The server answers the stories get instead of a live server. Screens that read the API directly
 * (not through an API object a story hands them) find their answers here: the preview replaces
 * `fetch` (installApiFixtures), answers the routes below in the server's `{code, msg, data}` envelope,
 * and refuses every other /api or /config.json request. A refused request (or an answer that does
 * not pass its schema) is logged as an error and fails the stories run (vitest.setup.ts). A new story
 * that fetches gets a route here, typed with the answer's zod schema from schemas/ and checked with
 * it, so the fixture cannot drift from the contract.
 *
 * @example
 * route('GET', '/api/v1/console/plugins/installed', z.array(EditorPlugin), () => []),
 */
import { z } from 'zod';
import { EditorPlugin } from '../schemas/plugin-package';
import { StoreSubmission } from '../schemas/store';
import { Workspace } from '../schemas/workspace';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** What a route's answer sees of the request: its path parameters and query. */
export interface FixtureRequest {
  params: Record<string, string>;
  query: URLSearchParams;
}

export interface ApiRoute {
  method: Method;
  /** Path with `:name` parameters, without the query. */
  path: string;
  /** The answer's schema: each answer is checked with it before it is sent. */
  schema: z.ZodType;
  answer: (req: FixtureRequest) => unknown;
}

/**
 * A route whose answer is typed by the zod schema the client parses it with (its input type: what
 * the wire carries) and checked with it at run time. (The answer has its own type parameter: typed
 * `(req) => z.input<S>` directly, its literals, e.g. 'owner', widen to string while S is inferred.)
 */
export function route<S extends z.ZodType, A extends (req: FixtureRequest) => z.input<S>>(method: Method, path: string, schema: S, answer: A): ApiRoute {
  return { method, path, schema, answer };
}

const AT = '2026-11-20T09:30:00.000Z';

/** The routes the stories' screens call, in the order they are tried. */
export const apiRoutes: ApiRoute[] = [
  // Editors, run logs and the store's flow preview list the installed plugin packages
  // (src/canvas/installed-plugins.ts): none, the built-in node kinds only.
  route('GET', '/api/v1/console/plugins/installed', z.array(EditorPlugin), () => []),
  // "Publish to store" on the prompt, knowledge and tool pages (src/app/store/publish-to-store.tsx):
  // never published, in a space the viewer owns (the button enabled).
  route('GET', '/api/v1/console/store/submission', StoreSubmission, () => null),
  route('GET', '/api/v1/console/workspaces/:workspace_id', Workspace, ({ params }) => ({
    id: params.workspace_id,
    name: 'Design team',
    description: '',
    icon: '',
    role_type: 'owner',
    member_count: 4,
    created_at: AT,
    updated_at: AT,
  })),
];

let listener: ((message: string) => void) | undefined;

/**
 * Who hears, besides the console, of a request the fixtures refuse or of an answer that does not
 * pass its schema (the message names the request: `METHOD /path?query`).
 */
export function onFixtureError(next: ((message: string) => void) | undefined): void {
  listener = next;
}

function fixtureError(status: number, msg: string): Response {
  console.error(`[storybook] ${msg}`);
  listener?.(msg);
  return Response.json({ code: 'STORYBOOK-FIXTURE', msg }, { status });
}

/** The requests the fixtures answer or refuse: the API and the runtime config, on any host. */
export function isServerRequest(url: URL): boolean {
  return (url.protocol === 'http:' || url.protocol === 'https:') && (url.pathname.startsWith('/api/') || url.pathname === '/config.json');
}

function match(pattern: string, pathname: string): Record<string, string> | null {
  const want = pattern.split('/');
  const got = pathname.split('/');
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    if (want[i].startsWith(':')) params[want[i].slice(1)] = decodeURIComponent(got[i]);
    else if (want[i] !== got[i]) return null;
  }
  return params;
}

/**
 * The answer to one server request: the route's data in the server's envelope; for a request no
 * route answers, 501, and for an answer its schema refuses, 500, each with a message naming the
 * request (logged and passed to the {@link onFixtureError} listener).
 */
export function answerRequest(method: string, url: URL, routes: ApiRoute[] = apiRoutes): Response {
  const verb = method.toUpperCase();
  const what = `${verb} ${url.pathname}${url.search}`;
  for (const r of routes) {
    const params = r.method === verb ? match(r.path, url.pathname) : null;
    if (!params) continue;
    const data = r.answer({ params, query: url.searchParams });
    const checked = r.schema.safeParse(data);
    if (!checked.success) return fixtureError(500, `The Storybook fixture for ${what} does not pass its schema: ${checked.error.message}`);
    return Response.json({ code: 0, msg: 'success', data });
  }
  return fixtureError(501, `No Storybook fixture for ${what}: add a route to .storybook/api-fixtures.ts`);
}

let installed = false;

/**
 * Replaces `fetch` (server requests answered by the fixtures, others passed on) and reports an
 * XMLHttpRequest to the server (upload progress, src/api/files.ts) as unexpected. Idempotent.
 */
export function installApiFixtures(): void {
  if (installed || typeof window === 'undefined') return;
  installed = true;
  const passOn = window.fetch.bind(window);
  window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input), window.location.href);
    if (!isServerRequest(url)) return passOn(input, init);
    const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
    // A network answer arrives later than the call: a screen's loading state shows for a moment.
    await new Promise((resolve) => setTimeout(resolve, 0));
    return answerRequest(method, url);
  };
  const open = XMLHttpRequest.prototype.open;
  XMLHttpRequest.prototype.open = function (this: XMLHttpRequest, method: string, url: string | URL, ...rest: unknown[]) {
    const target = new URL(String(url), window.location.href);
    if (isServerRequest(target)) answerRequest(method, target, []);
    return (open as (...a: unknown[]) => void).call(this, method, url, ...rest);
  } as typeof XMLHttpRequest.prototype.open;
}
