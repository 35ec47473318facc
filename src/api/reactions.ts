/**
 * The app's reactions to request failures (spec 4 and 8.1), in one place. main.tsx calls
 * {@link installReactions} once; the router hands over navigation with {@link setNavigator}; the toast
 * subscribes with {@link onApiMessage}.
 *
 * | Answer | `reaction: 'toast'` (default) | `'page'` (route loaders) | `'silent'` |
 * |---|---|---|---|
 * | 401 | refresh the token once (shared by concurrent calls) and replay; replay 401 or refresh refused → clear the session, go to /login?redirect_uri=<current path> | same | same, but no navigation and no message |
 * | 403 | go to /403 | go to /403 (replace) | — |
 * | 404 | message | go to /404 (replace) | — |
 * | 400 VALIDATION-1000 | message 'Parameter error' (+ server msg) | message 'Unauthorized operation' (spec 6) | — |
 * | other 400, other 4xx | message for the code, else the server msg, else 'Request error' / 'Request failed' | same | — |
 * | 405, 500–504, other 5xx | the status message of spec 8.1 | same | — |
 * | no answer | 'Network connection failed' / 'The request timed out' | same | — |
 *
 * Every failure still rejects the caller's promise with the ApiError (an aborted call with its
 * AbortError). {@link wasReported} tells whether the user has already been told, so a screen does not
 * show a second message.
 *
 * 404 rule: only a page-level load (`reaction: 'page'`, used by route loaders for the page's own
 * resource) sends the user to /404. A 404 from an ordinary call (a button, a side list, a picker) shows
 * a message and leaves the user where they are: losing the page for a failed side call would be worse.
 * Note Weft's server answers a missing or foreign id with 400 VALIDATION-1000 (never 404, which would
 * reveal existence); the route guards turn that into the error screen where the spec asks for it.
 */
import { PARAM_ERROR } from './error-codes';
import { getConfig } from '../app/config';
import { loginPath, paths } from '../app/paths';
import { useSession } from '../app/session';
import { codeText, currentLanguage, hasText, tDynamic } from '../i18n';
import { refreshSession } from './auth';
import { ApiError, ClientErrorCode, isAbortError, setRequestInterceptors, type Reaction, type RequestContext } from './request';

// ---------------------------------------------------------------------------------------------------
// Messages

export interface ApiMessage {
  level: 'error' | 'warning' | 'info' | 'success';
  /** The translated line to show. */
  text: string;
  /** The server's own msg when it adds something to `text` (show it smaller, or in a tooltip). */
  detail?: string;
  status?: number;
  code?: string;
}

type MessageListener = (message: ApiMessage) => void;
const listeners = new Set<MessageListener>();

/** The same text again within this window is dropped (ten calls failing at once give one toast). */
const DEDUPE_MS = 1000;
const recent = new Map<string, number>();

/**
 * Subscribes to the messages the request layer wants shown (the toast does this once). Returns the
 * unsubscribe function.
 *
 * @example useEffect(() => onApiMessage((m) => toast({ variant: m.level, title: m.text, description: m.detail })), []);
 */
export function onApiMessage(listener: MessageListener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** Shows a message through the subscribed toast. Screens may use it too (e.g. a success message). */
export function notify(message: ApiMessage): void {
  const key = `${message.level}\u0000${message.text}`;
  const now = Date.now();
  const last = recent.get(key);
  if (last !== undefined && now - last < DEDUPE_MS) return;
  recent.set(key, now);
  for (const [k, at] of recent) if (now - at >= DEDUPE_MS) recent.delete(k);
  for (const listener of [...listeners]) listener(message);
}

const reported = new WeakSet<object>();

/** Whether the reactions already told the user about this error (message or navigation). */
export function wasReported(e: unknown): boolean {
  return typeof e === 'object' && e !== null && reported.has(e);
}


/** A local rejection may name its own text: `data.messageKey` (an i18n key that exists). */
function messageKeyOf(data: unknown): string | undefined {
  const key = typeof data === 'object' && data !== null ? (data as { messageKey?: unknown }).messageKey : undefined;
  return typeof key === 'string' && hasText(key) ? key : undefined;
}

const STATUS_TEXT = new Set([400, 401, 403, 404, 405, 500, 501, 502, 503, 504]);

/**
 * A VALIDATION-1000 refusal the server names by `data.reason` (a rule of its own, e.g. publishing a
 * tool without functions), in the user's language; undefined for a reason the catalogue does not know.
 */
function reasonText(data: unknown): string | undefined {
  const reason = typeof data === 'object' && data !== null ? (data as { reason?: unknown }).reason : undefined;
  return typeof reason === 'string' && hasText(`errors:reasons.${reason}`) ? tDynamic(`errors:reasons.${reason}`) : undefined;
}

/**
 * What a VALIDATION-1000 says is missing, in the user's language: the server names it in
 * `data.resource` (src/server/errors.ts notFoundOrForeign).
 */
export function missingText(data: unknown): string | undefined {
  const resource = typeof data === 'object' && data !== null ? (data as { resource?: unknown }).resource : undefined;
  if (typeof resource !== 'string' || resource === '') return undefined;
  return tDynamic(hasText(`errors:missing.${resource}`) ? `errors:missing.${resource}` : 'errors:missing.generic');
}

/**
 * The field issues of a VALIDATION-1000 (`data`, src/server/errors.ts) in the user's language: each
 * said from the catalogue by its rule and limit; one the catalogue does not know keeps the server's
 * English sentence in English and is left out in another language (issue 28).
 */
function issuesText(data: unknown, english: boolean): string | undefined {
  if (!Array.isArray(data)) return undefined;
  const parts: string[] = [];
  for (const issue of data as Record<string, unknown>[]) {
    if (typeof issue !== 'object' || issue === null) continue;
    const { path, message, rule, origin, limit } = issue;
    const keys = typeof rule !== 'string' ? [] : typeof origin === 'string' ? [`${rule}_${origin}`, rule] : [rule];
    const key = keys.map((k) => `errors:fields.${k}`).find((k) => hasText(k) || hasText(`${k}_other`));
    const said = key ? tDynamic(key, { count: typeof limit === 'number' ? limit : 0 }) : english && typeof message === 'string' ? message : undefined;
    if (!said) continue;
    // 'body/items/0/name' → 'items.0.name': the request part is not the user's business.
    const field = typeof path === 'string' ? path.replace(/^\/?(body|querystring|params|headers)?\//, '').split('/').filter(Boolean).join('.') : '';
    parts.push(field ? tDynamic('errors:fields.item', { field, text: said }) : said);
  }
  return parts.length > 0 ? parts.join(tDynamic('errors:fields.separator')) : undefined;
}

/**
 * The message for a failure, translated (spec 8.1-8.3). `null` for an aborted call (nothing to say).
 * Usable by any screen that handles errors itself:
 *
 * @example catch (e) { setFormError(describeError(e)?.text ?? null); }
 */
export function describeError(e: unknown, reaction: Reaction = 'toast'): ApiMessage | null {
  if (isAbortError(e)) return null;
  if (!(e instanceof ApiError)) {
    return { level: 'error', text: tDynamic('errors:client.unknown'), detail: e instanceof Error ? e.message : undefined };
  }
  const { status, code, msg } = e;
  // The server's msg is English: it is never shown in another language (issue 28); the catalogue
  // speaks for the code instead.
  const english = currentLanguage() === 'en';
  const missing = status === 400 && code === PARAM_ERROR ? (missingText(e.data) ?? reasonText(e.data)) : undefined;
  let text: string;
  if (status === 0) {
    const key = {
      [ClientErrorCode.NETWORK]: 'errors:client.network',
      [ClientErrorCode.TIMEOUT]: 'errors:client.timeout',
      [ClientErrorCode.BAD_RESPONSE]: 'errors:client.badResponse',
      [ClientErrorCode.INVALID_INPUT]: 'errors:client.invalidInput',
    }[code];
    const own = messageKeyOf(e.data);
    text = own ? tDynamic(own) : key ? tDynamic(key) : (codeText(code) ?? tDynamic('errors:client.unknown'));
  } else if (status === 401) {
    text = tDynamic('errors:status.401');
  } else if (status >= 500 || status === 405) {
    text = tDynamic(STATUS_TEXT.has(status) ? `errors:status.${status}` : 'errors:status.5xx');
  } else if (status === 400 && reaction === 'page' && code === PARAM_ERROR) {
    // An id page (spec 6): "unauthorized operation", and what is missing under it.
    text = tDynamic('errors:unauthorizedOperation');
    return { level: 'error', text, detail: missing ?? (english && msg && msg !== text ? msg : undefined), status, code };
  } else if (missing) {
    return { level: 'error', text: missing, status, code };
  } else if (status >= 400) {
    const fallback = STATUS_TEXT.has(status) ? `errors:status.${status}` : 'errors:status.4xx';
    text = codeText(code, e.data) ?? ((english && msg) || tDynamic(fallback));
  } else {
    // A 2xx with an error envelope or an unreadable body.
    text = code === ClientErrorCode.BAD_RESPONSE ? tDynamic('errors:client.badResponse') : (codeText(code) ?? ((english && msg) || tDynamic('errors:status.4xx')));
  }
  const issues = status === 400 && code === PARAM_ERROR ? issuesText(e.data, english) : undefined;
  const detail = issues ?? (english && msg && msg !== text && code !== ClientErrorCode.BAD_RESPONSE && status !== 0 ? msg : undefined);
  return { level: 'error', text, detail, status, code };
}

// ---------------------------------------------------------------------------------------------------
// Navigation

/** Navigates inside the app. The router provides it (`setNavigator((to, o) => router.navigate(to, o))`). */
export type Navigate = (to: string, options?: { replace?: boolean }) => void;

const browserNavigate: Navigate = (to, options) => {
  if (options?.replace) window.location.replace(to);
  else window.location.assign(to);
};

let navigate: Navigate = browserNavigate;

/** Hands navigation to the router; `null` goes back to full page loads. Returns the previous one. */
export function setNavigator(fn: Navigate | null): Navigate {
  const previous = navigate;
  navigate = fn ?? browserNavigate;
  return previous;
}

/** The current in-app location (path + search), the `redirect_uri` for the login page. */
export function currentPath(): string {
  return typeof window === 'undefined' ? '/' : window.location.pathname + window.location.search;
}

let lastLoginRedirect = 0;

/**
 * Ends an expired session: clears it, tells the user and goes to the login page with the current path
 * as redirect_uri (once, however many calls failed together). 'silent' only clears.
 */
export function expireSession(reaction: Reaction = 'toast'): void {
  const hadToken = Boolean(useSession.getState().accessToken);
  useSession.getState().clear();
  if (reaction === 'silent') return;
  const here = currentPath();
  const now = Date.now();
  if (here === paths.login || here.startsWith(`${paths.login}?`) || now - lastLoginRedirect < DEDUPE_MS) return;
  lastLoginRedirect = now;
  if (hadToken) notify({ level: 'warning', text: tDynamic('errors:status.401'), status: 401 });
  navigate(loginPath(here), { replace: true });
}

// ---------------------------------------------------------------------------------------------------
// The interceptors

const usesSessionToken = (ctx: RequestContext) => ctx.options.auth !== false && ctx.options.token === undefined;

async function beforeSend(ctx: RequestContext): Promise<void> {
  if (!usesSessionToken(ctx)) return;
  const { accessToken, refreshToken, tokenExpiresAt } = useSession.getState();
  if (!accessToken || !refreshToken || tokenExpiresAt === null) return;
  const leewayMs = getConfig().tokenRefreshLeewaySeconds * 1000;
  if (tokenExpiresAt - Date.now() > leewayMs) return;
  try {
    // Refused: the call goes out with the old token, answers 401 and onError ends the session.
    await refreshSession();
  } catch {
    // The server could not be asked; the call itself will report what is wrong.
  }
}

async function onError(error: ApiError, ctx: RequestContext, replay: () => Promise<unknown>): Promise<unknown> {
  const reaction = ctx.options.reaction ?? 'toast';

  if (error.status === 401 && usesSessionToken(ctx)) {
    const { accessToken, refreshToken } = useSession.getState();
    if (ctx.attempt === 0 && accessToken) {
      // Another call renewed the token while this one was in flight: just send it again.
      if (ctx.sentToken !== accessToken) return replay();
      let renewed = false;
      if (refreshToken) {
        try {
          renewed = await refreshSession();
        } catch (refreshError) {
          report(refreshError instanceof ApiError ? refreshError : error, reaction);
          throw error;
        }
      }
      if (renewed) return replay();
    }
    if (reaction !== 'silent') reported.add(error);
    expireSession(reaction);
    throw error;
  }

  report(error, reaction);
  throw error;
}

function report(error: ApiError, reaction: Reaction): void {
  if (reaction === 'silent') return;
  if (error.status === 403) {
    reported.add(error);
    navigate(paths.forbidden, { replace: reaction === 'page' });
    return;
  }
  if (error.status === 404 && reaction === 'page') {
    reported.add(error);
    navigate(paths.notFound, { replace: true });
    return;
  }
  const message = describeError(error, reaction);
  if (message) {
    reported.add(error);
    notify(message);
  }
}

/**
 * Plugs the reactions into the request layer (main.tsx, once; tests per case: it also forgets the
 * de-duplication state). Returns a function that removes them.
 */
export function installReactions(): () => void {
  recent.clear();
  lastLoginRedirect = 0;
  return setRequestInterceptors({ beforeSend, onError });
}
