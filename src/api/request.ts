/**
 * The client request layer (spec 7.1). One function, {@link request}, sends every API call:
 *
 * - `Endpoint {method, url}`; path parameters written `:name` or `{name}` are filled from the params
 *   (URI-encoded) and removed from them;
 * - GET and DELETE send the remaining params as a query string (empty values `undefined`, `null`, `''`
 *   dropped; arrays repeat the key); POST and PUT send them as a JSON body; a `FormData` is sent as
 *   multipart (the browser sets the content type and boundary);
 * - headers `Authorization: Bearer`, `X-Tenant-Id`, `X-Workspace-Id` come from the session and can be
 *   overridden per call;
 * - a 2xx envelope `{code: 0, msg, data}` resolves to `data`; anything else throws {@link ApiError}
 *   `{status, code, msg, data}`, read from the body's `code` and `msg`/`message` even when the call asked
 *   for a blob or a stream.
 *
 * This file knows nothing about routing or messages: the app's reactions (token refresh, navigation,
 * toasts; see reactions.ts) plug in through {@link setRequestInterceptors}.
 */
import type { z } from 'zod';
import { useSession } from '../app/session';
import type { Guard } from './guard';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** One API call: method and URL with `:name` / `{name}` path parameters. `name` is for logs and tests. */
export interface Endpoint {
  method: HttpMethod;
  url: string;
  name?: string;
}

export type Params = Record<string, unknown>;
export type ResponseType = 'json' | 'blob' | 'stream';

/**
 * How the app reacts when the call fails (see reactions.ts for the full table):
 * - `'toast'` (default): an ordinary call (a button, a list refresh). 401 refreshes once and replays;
 *   403 goes to /403; every other failure, 404 included, shows a message and rejects.
 * - `'page'`: the call loads the main resource of the page being opened (a route loader). Like
 *   `'toast'`, except that 404 goes to /404 and VALIDATION-1000 reads as "unauthorized operation".
 * - `'silent'`: the caller handles the error itself (forms showing inline errors, guards). 401 still
 *   refreshes once and replays; a failed refresh still clears the session, but nothing is shown and
 *   nothing navigates.
 */
export type Reaction = 'toast' | 'page' | 'silent';

export interface RequestOptions {
  signal?: AbortSignal;
  /** Extra headers (win over the computed ones). */
  headers?: Record<string, string>;
  /** Bearer token for this call; `null` sends none. Default: the session's. A given token is never refreshed. */
  token?: string | null;
  /** X-Tenant-Id for this call; `null` sends none. Default: the session's. */
  tenantId?: string | null;
  /** X-Workspace-Id for this call; `null` sends none. Default: the session's. */
  workspaceId?: string | null;
  /** Path values, for when params is a FormData (or to override a param of the same name). */
  path?: Record<string, string | number>;
  /** Query parameters added to a POST/PUT (GET/DELETE take theirs from params). */
  query?: Params;
  /** `'json'` (default) resolves to the envelope's data; `'blob'` and `'stream'` to the raw body. */
  responseType?: ResponseType;
  /** `false`: no Authorization header and no token refresh (login, refresh, public calls). Default true. */
  auth?: boolean;
  reaction?: Reaction;
  /** Gives up after this many ms (ApiError CLIENT-TIMEOUT). Default 600000 for json and blob, none for stream. */
  timeoutMs?: number;
  /** Parses the data; a mismatch throws ApiError CLIENT-BAD-RESPONSE. Prefer {@link call}, which types it. */
  schema?: SchemaSource;
}

/**
 * A zod schema, or a function that loads one: the schema's module (and zod) then loads beside the call
 * instead of with the page (the portal's first load leaves zod out, issue 21). Loading starts when the
 * call starts, so the answer waits for it only if it arrives first. Or a guard (./guard.ts: zod's
 * JSON Schema of the answer, checked without zod) for the calls of a first load (issue 28).
 */
export type SchemaSource = z.ZodType | Guard<unknown> | (() => Promise<z.ZodType>);

/** Codes the client gives to failures that have no server answer (status 0) or an unreadable one. */
export const ClientErrorCode = {
  /** No answer: offline, DNS, connection refused, CORS. */
  NETWORK: 'CLIENT-NETWORK',
  /** `timeoutMs` elapsed. */
  TIMEOUT: 'CLIENT-TIMEOUT',
  /** A 2xx answer that is not the JSON the call expects. */
  BAD_RESPONSE: 'CLIENT-BAD-RESPONSE',
  /** Rejected before any call (a missing path parameter, a local validation rule). */
  INVALID_INPUT: 'CLIENT-INVALID-INPUT',
} as const;
export type ClientErrorCode = (typeof ClientErrorCode)[keyof typeof ClientErrorCode];

/** A failed call. `status` 0 means no HTTP answer (see {@link ClientErrorCode}). */
export class ApiError<D = unknown> extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  /** Catalogue code (schemas/errors.ts), a {@link ClientErrorCode}, or `HTTP-<status>` for a body without one. */
  readonly code: string;
  /** The server's msg/message ('' when there was none). */
  readonly msg: string;
  readonly data: D;

  constructor(init: { status: number; code: string; msg?: string; data?: D; cause?: unknown }) {
    super(init.msg || init.code, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.code = init.code;
    this.msg = init.msg ?? '';
    this.data = (init.data ?? null) as D;
  }
}

export function isApiError(e: unknown, code?: string): e is ApiError {
  return e instanceof ApiError && (code === undefined || e.code === code);
}

/** Whether the caller aborted the call (its AbortSignal fired); such failures are not errors to show. */
export function isAbortError(e: unknown): boolean {
  return typeof e === 'object' && e !== null && (e as { name?: unknown }).name === 'AbortError';
}

// ---------------------------------------------------------------------------------------------------
// Building the request

const PATH_PARAM = /:([A-Za-z_][A-Za-z0-9_]*)|\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

const isEmptyValue = (v: unknown) => v === undefined || v === null || v === '';

export function isFormData(v: unknown): v is FormData {
  // Tag check rather than instanceof: FormData can come from another realm (iframe, test environment).
  return Object.prototype.toString.call(v) === '[object FormData]';
}

/**
 * Fills the path parameters of `url` from `params` (and `path`, which wins) and returns the URL and the
 * params left over. A missing value throws ApiError CLIENT-INVALID-INPUT.
 *
 * @example resolvePath('/ws/:workspace_id/members/{member_id}', { workspace_id: 'a b', member_id: 2, x: 1 })
 * // → { url: '/ws/a%20b/members/2', rest: { x: 1 } }
 */
export function resolvePath(url: string, params: Params = {}, path: Record<string, unknown> = {}): { url: string; rest: Params } {
  const rest: Params = { ...params };
  const q = url.indexOf('?');
  const head = q < 0 ? url : url.slice(0, q);
  const tail = q < 0 ? '' : url.slice(q);
  const filled = head.replace(PATH_PARAM, (_m, colon: string | undefined, brace: string | undefined) => {
    const name = (colon ?? brace) as string;
    const value = name in path ? path[name] : params[name];
    delete rest[name];
    if (isEmptyValue(value)) {
      throw new ApiError({
        status: 0,
        code: ClientErrorCode.INVALID_INPUT,
        msg: `Missing path parameter "${name}" for ${url}`,
      });
    }
    return encodeURIComponent(String(value));
  });
  return { url: filled + tail, rest };
}

function serialise(v: unknown): string {
  if (v instanceof Date) return v.toISOString();
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/**
 * A query string (without `?`) from params: empty values dropped, arrays as repeated keys, dates as ISO
 * strings, objects as JSON.
 */
export function toQueryString(params: Params = {}): string {
  const sp = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (!isEmptyValue(item)) sp.append(key, serialise(item));
    }
  }
  return sp.toString();
}

// ---------------------------------------------------------------------------------------------------
// Extension points

/** What an interceptor learns about a call. `attempt` is 0, then 1 for a replay. */
export interface RequestContext {
  readonly endpoint: Endpoint;
  readonly params: Params | FormData | undefined;
  readonly options: RequestOptions;
  readonly attempt: number;
  /** The bearer token the call was sent with (null: none). Set once the call was sent. */
  readonly sentToken: string | null;
}

export interface RequestInterceptors {
  /** Runs before each send (a replay too); may wait, e.g. to refresh a token about to expire. Throwing aborts the call. */
  beforeSend?(ctx: RequestContext): void | Promise<void>;
  /**
   * Gets every ApiError. Return a value to resolve the call with it (e.g. `replay()`, which sends the call
   * again with attempt + 1 and fresh session headers), or throw.
   */
  onError?(error: ApiError, ctx: RequestContext, replay: () => Promise<unknown>): Promise<unknown>;
}

let interceptors: RequestInterceptors = {};

/** Installs the app's interceptors (one set at a time); returns a function that puts back the previous set. */
export function setRequestInterceptors(next: RequestInterceptors | null): () => void {
  const previous = interceptors;
  interceptors = next ?? {};
  return () => {
    interceptors = previous;
  };
}

interface Transport {
  /** Prefix for relative URLs ('' in the browser: same origin). */
  baseUrl: string;
  fetch?: typeof fetch;
}

const transport: Transport = { baseUrl: '' };

/** Sets the URL prefix and/or the fetch implementation (tests, stories, embedding). */
export function configureRequest(next: Partial<Transport>): void {
  Object.assign(transport, next);
}

// ---------------------------------------------------------------------------------------------------
// Sending

const DEFAULT_TIMEOUT_MS = 600_000;

function pick(override: string | null | undefined, fallback: string | null): string | null {
  return override === undefined ? fallback : override;
}

async function readError(res: Response): Promise<ApiError> {
  let text = '';
  try {
    text = await res.text();
  } catch {
    // The body could not be read; the status alone decides.
  }
  let code = `HTTP-${res.status}`;
  let msg = '';
  let data: unknown = null;
  try {
    const body = JSON.parse(text) as Record<string, unknown>;
    if (body && typeof body === 'object') {
      if (typeof body.code === 'string' || typeof body.code === 'number') code = String(body.code);
      const m = body.msg ?? body.message;
      if (typeof m === 'string') msg = m;
      data = body.data ?? null;
    }
  } catch {
    // Not JSON (a proxy's HTML page, an empty body).
  }
  return new ApiError({ status: res.status, code, msg, data });
}

function isEnvelope(body: unknown): body is { code: unknown; msg?: unknown; message?: unknown; data?: unknown } {
  return typeof body === 'object' && body !== null && !Array.isArray(body) && 'code' in body && ('data' in body || 'msg' in body || 'message' in body);
}

async function readJson(res: Response, source: SchemaSource | undefined): Promise<unknown> {
  const text = await res.text();
  let body: unknown = null;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch (cause) {
      throw new ApiError({ status: res.status, code: ClientErrorCode.BAD_RESPONSE, msg: 'The answer is not JSON', cause });
    }
  }
  let data = body;
  if (isEnvelope(body)) {
    if (body.code !== 0 && body.code !== '0') {
      const m = body.msg ?? body.message;
      throw new ApiError({ status: res.status, code: String(body.code), msg: typeof m === 'string' ? m : '', data: body.data ?? null });
    }
    data = body.data ?? null;
  }
  if (!source) return data;
  const schema = typeof source === 'function' ? await source() : source;
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    throw new ApiError({ status: res.status, code: ClientErrorCode.BAD_RESPONSE, msg: 'The answer does not match its schema', data: parsed.error.issues });
  }
  return parsed.data;
}

async function send(ctx: { -readonly [K in keyof RequestContext]: RequestContext[K] }, url: string, rest: Params | FormData | undefined): Promise<unknown> {
  const { endpoint, options: opts } = ctx;
  const session = useSession.getState();
  const responseType = opts.responseType ?? 'json';
  const auth = opts.auth !== false;

  const token = auth ? pick(opts.token, session.accessToken) : null;
  const tenantId = pick(opts.tenantId, session.tenantId);
  const workspaceId = pick(opts.workspaceId, session.workspaceId);
  ctx.sentToken = token;

  const headers: Record<string, string> = {};
  if (responseType === 'json') headers.Accept = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  if (tenantId) headers['X-Tenant-Id'] = tenantId;
  if (workspaceId) headers['X-Workspace-Id'] = workspaceId;

  const bodyless = endpoint.method === 'GET' || endpoint.method === 'DELETE';
  let body: BodyInit | undefined;
  let query = '';
  if (isFormData(rest)) {
    body = rest;
    query = toQueryString(opts.query);
  } else if (bodyless) {
    query = toQueryString({ ...rest, ...opts.query });
  } else {
    query = toQueryString(opts.query);
    if (rest !== undefined) {
      body = JSON.stringify(rest);
      headers['Content-Type'] = 'application/json';
    }
  }
  Object.assign(headers, opts.headers);

  const timeoutMs = opts.timeoutMs ?? (responseType === 'stream' ? undefined : DEFAULT_TIMEOUT_MS);
  const timeout = timeoutMs ? AbortSignal.timeout(timeoutMs) : undefined;
  const signal = opts.signal && timeout ? AbortSignal.any([opts.signal, timeout]) : (opts.signal ?? timeout);

  const full = /^[a-z][a-z0-9+.-]*:/i.test(url) ? url : transport.baseUrl + url;
  const sep = full.includes('?') ? '&' : '?';
  const doFetch = transport.fetch ?? globalThis.fetch;

  const timedOut = (cause: unknown) =>
    new ApiError({ status: 0, code: ClientErrorCode.TIMEOUT, msg: `No answer within ${timeoutMs} ms`, cause });

  let res: Response;
  try {
    res = await doFetch(query ? full + sep + query : full, { method: endpoint.method, headers, body, signal });
  } catch (cause) {
    if (timeout?.aborted && !opts.signal?.aborted) throw timedOut(cause);
    if (isAbortError(cause) || opts.signal?.aborted) throw cause;
    throw new ApiError({ status: 0, code: ClientErrorCode.NETWORK, msg: cause instanceof Error ? cause.message : String(cause), cause });
  }

  try {
    if (!res.ok) throw await readError(res);
    if (responseType === 'blob') return await res.blob();
    if (responseType === 'stream') {
      if (!res.body) throw new ApiError({ status: res.status, code: ClientErrorCode.BAD_RESPONSE, msg: 'The answer has no body' });
      return res.body;
    }
    return await readJson(res, opts.schema);
  } catch (e) {
    if (e instanceof ApiError) throw e;
    if (timeout?.aborted && !opts.signal?.aborted) throw timedOut(e);
    if (isAbortError(e) || opts.signal?.aborted) throw e;
    throw new ApiError({ status: 0, code: ClientErrorCode.NETWORK, msg: e instanceof Error ? e.message : String(e), cause: e });
  }
}

async function run(endpoint: Endpoint, params: Params | FormData | undefined, options: RequestOptions, attempt: number): Promise<unknown> {
  const ctx = { endpoint, params, options, attempt, sentToken: null as string | null };
  let url: string;
  let rest: Params | FormData | undefined;
  try {
    if (isFormData(params)) {
      url = resolvePath(endpoint.url, {}, options.path).url;
      rest = params;
    } else {
      const resolved = resolvePath(endpoint.url, params, options.path);
      url = resolved.url;
      rest = params === undefined ? undefined : resolved.rest;
    }
    await interceptors.beforeSend?.(ctx);
    return await send(ctx, url, rest);
  } catch (e) {
    const onError = interceptors.onError;
    if (!(e instanceof ApiError) || !onError) throw e;
    return onError(e, ctx, () => run(endpoint, params, options, attempt + 1));
  }
}

/**
 * Rejects a call before it is sent (a local validation rule, spec 5), through the same reactions as a
 * server error (so the caller's `reaction` decides whether a message is shown). `error` is usually an
 * ApiError CLIENT-INVALID-INPUT whose `data.messageKey` names the i18n text to show.
 */
export function rejectLocally(endpoint: Endpoint, params: Params | FormData | undefined, options: RequestOptions, error: ApiError): Promise<never> {
  const onError = interceptors.onError;
  if (!onError) return Promise.reject(error);
  const ctx: RequestContext = { endpoint, params, options, attempt: 0, sentToken: null };
  return onError(error, ctx, () => Promise.reject(error)).then(() => Promise.reject(error));
}

/**
 * Sends one API call (see the file comment for the rules).
 *
 * @example
 * const ws = await request<Workspace>({ method: 'GET', url: '/api/v1/console/workspaces/:workspace_id' }, { workspace_id: id });
 * const file = await request(downloadEp, { file_id }, { responseType: 'blob' });
 * const events = await request(runEp, body, { responseType: 'stream', signal });
 */
export function request<T = unknown>(endpoint: Endpoint, params?: Params | FormData, options?: RequestOptions & { responseType?: 'json' }): Promise<T>;
export function request(endpoint: Endpoint, params: Params | FormData | undefined, options: RequestOptions & { responseType: 'blob' }): Promise<Blob>;
export function request(
  endpoint: Endpoint,
  params: Params | FormData | undefined,
  options: RequestOptions & { responseType: 'stream' },
): Promise<ReadableStream<Uint8Array>>;
export function request(endpoint: Endpoint, params?: Params | FormData, options: RequestOptions = {}): Promise<unknown> {
  const source = options.schema;
  if (typeof source === 'function') {
    // Load once, from now (beside the fetch); a replay after a token refresh reuses it.
    const loading = source();
    loading.catch(() => {
      // Reported by readJson if the answer gets that far.
    });
    return run(endpoint, params, { ...options, schema: () => loading }, 0);
  }
  return run(endpoint, params, options, 0);
}

/**
 * {@link request} whose data is parsed (and typed) by a zod schema from schemas/ (or a guard made from
 * one, ./guard.ts); a mismatch throws ApiError CLIENT-BAD-RESPONSE. Endpoint functions in
 * src/api/<group>.ts are written with it.
 *
 * @example
 * export const getWorkspace = (workspace_id: string, opts?: RequestOptions) =>
 *   call(Workspace, ep.get, { workspace_id }, opts);
 * // On a page's first load: the schema loads beside the call (zod stays out of the page's chunks).
 * const schemas = () => import('./portal-schemas');
 * export const listPortalApps = (opts?: RequestOptions) => call(async () => (await schemas()).PortalAppPage, ep.apps, {}, opts);
 */
export function call<S extends z.ZodType>(
  schema: S | (() => Promise<S>),
  endpoint: Endpoint,
  params?: Params | FormData,
  options?: Omit<RequestOptions, 'responseType' | 'schema'>,
): Promise<z.output<S>>;
export function call<T>(schema: Guard<T>, endpoint: Endpoint, params?: Params | FormData, options?: Omit<RequestOptions, 'responseType' | 'schema'>): Promise<T>;
export function call(schema: SchemaSource, endpoint: Endpoint, params?: Params | FormData, options?: Omit<RequestOptions, 'responseType' | 'schema'>): Promise<unknown> {
  return request(endpoint, params, { ...options, schema });
}
