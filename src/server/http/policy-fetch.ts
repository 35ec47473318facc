import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { OutboundConnectError, pinnedLookup, type OutboundPolicy, type OutboundPurpose } from '../security/outbound-policy';
import { mark } from '../runs/first-token-trace';

const DNS_TIMEOUT = new Error('DNS lookup timed out');

/** `p`, or DNS_TIMEOUT after `ms`, or the signal's reason when it aborts first. */
function withDeadline<T>(p: Promise<T>, ms: number, signal: AbortSignal | undefined): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const stop = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(DNS_TIMEOUT), ms);
    if (signal) {
      onAbort = () => reject(abortReason(signal));
      signal.addEventListener('abort', onAbort, { once: true });
    }
  });
  return Promise.race([p, stop]).finally(() => {
    clearTimeout(timer);
    if (onAbort) signal!.removeEventListener('abort', onAbort);
  });
}

/**
 * A `fetch` for the SDKs that talk to the outside for users (the model providers' clients, remote
 * MCP transports): the same contract as the global fetch, over node:http with kept-alive
 * connections, every request's destination admitted by the outbound policy and the connection made
 * to the address it checked. Node 20's own fetch also spent about 1.5 ms before a request left (first
 * streamed token 8.6 ms with it, 6.8 ms this way, against a local provider).
 *
 * Like fetch: a network failure rejects with `TypeError('fetch failed')`, whose cause is the policy's
 * uniform OutboundConnectError (the SDKs retry it; the detail is in the server's log); a refusal
 * rejects with the OutboundRefusedError itself (not retried: nothing was sent); an abort rejects with
 * the signal's reason and, once the body streams, errors the body with it; gzip, deflate and br
 * bodies are decoded. Any body fetch takes (form data, streams, blobs) is read into bytes first.
 * Redirects: 'follow' (the default) follows up to 5, each hop admitted again, credentials dropped
 * across origins; 'manual' answers the 3xx; 'error' rejects.
 */
export function createPolicyFetch(policy: OutboundPolicy, purpose: OutboundPurpose, opts: { connectTimeoutMs?: number } = {}): typeof fetch {
  return createPolicyClient(policy, purpose, opts).fetch;
}

/** An answer of {@link PolicyClient.request}: the body as the Node stream it arrived on (decoded). */
export interface PolicyResponse {
  status: number;
  statusText: string;
  headers: IncomingHttpHeaders;
  body: Readable;
}

export interface PolicyRequestInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  signal?: AbortSignal;
}

/**
 * The policy's fetch and, beside it on the same kept-alive connections, `request`: the same
 * admission, redirects, decoding, errors and aborts, answering with the Node stream instead of a
 * web Response. A streamed model answer read through fetch passes through web streams
 * (ReadableStream, TextDecoderStream, TransformStreams), which cost more main-thread time per token
 * than the rest of a portal chat's stream; the OpenAI-compatible text client reads this one.
 */
export interface PolicyClient {
  fetch: typeof fetch;
  request(url: string | URL, init?: PolicyRequestInit): Promise<PolicyResponse>;
}

export function createPolicyClient(policy: OutboundPolicy, purpose: OutboundPurpose, opts: { connectTimeoutMs?: number } = {}): PolicyClient {
  const agents = {
    'http:': new http.Agent({ keepAlive: true }),
    'https:': new https.Agent({ keepAlive: true }),
  };
  const connectMs = opts.connectTimeoutMs ?? 10_000;

  async function one(url: URL, method: string, headers: Record<string, string>, body: Uint8Array | string | undefined, signal: AbortSignal | undefined, redirect: RequestRedirect, hops: number): Promise<IncomingMessage> {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError('fetch failed', { cause: new Error(`${url.protocol} URLs are not fetched`) });
    if (signal?.aborted) throw abortReason(signal);
    const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
    // A refusal is thrown as it is: nothing left this server. A name that does not resolve in time
    // is a failed connection like any other.
    let target;
    try {
      target = await withDeadline(policy.admitUrl(url, purpose), connectMs, signal);
    } catch (e) {
      if (signal?.aborted) throw abortReason(signal);
      if (e instanceof OutboundConnectError || e === DNS_TIMEOUT) throw new TypeError('fetch failed', { cause: e === DNS_TIMEOUT ? policy.connectFailed(purpose, url.hostname, port, e) : e });
      throw e;
    }
    let res: IncomingMessage;
    try {
      res = await send(url, method, headers, body, signal, pinnedLookup(target), agents[url.protocol as 'http:' | 'https:'], connectMs);
    } catch (e) {
      if (signal?.aborted) throw abortReason(signal);
      throw new TypeError('fetch failed', { cause: policy.connectFailed(purpose, url.hostname, port, e) });
    }
    const status = res.statusCode ?? 0;
    const location = res.headers.location;
    if (status >= 300 && status < 400 && location && redirect !== 'manual') {
      res.resume();
      if (redirect === 'error') throw new TypeError('fetch failed', { cause: new Error(`Redirect to ${location} refused`) });
      if (hops >= 5) throw new TypeError('fetch failed', { cause: new Error('Too many redirects') });
      const next = new URL(location, url);
      const nextHeaders = { ...headers };
      if (next.origin !== url.origin) for (const h of Object.keys(nextHeaders)) if (/^(authorization|cookie|proxy-authorization|x-api-key|api-key)$/i.test(h)) delete nextHeaders[h];
      // As fetch does: 303, and 301/302 after a POST, continue as a GET without the body.
      if ((status === 303 && method !== 'HEAD') || ((status === 301 || status === 302) && method === 'POST')) {
        for (const h of Object.keys(nextHeaders)) if (/^content-(type|length)$/i.test(h)) delete nextHeaders[h];
        return one(next, 'GET', nextHeaders, undefined, signal, redirect, hops + 1);
      }
      return one(next, method, nextHeaders, body, signal, redirect, hops + 1);
    }
    return res;
  }

  const fetch = (async (input: string | URL | Request, init: RequestInit = {}) => {
    let url: URL;
    let method = init.method;
    let headers = headersOf(init.headers);
    let rawBody: BodyInit | null | undefined = init.body;
    let signal = init.signal ?? undefined;
    if (input instanceof Request) {
      url = new URL(input.url);
      method ??= input.method;
      if (!init.headers) headers = headersOf(input.headers);
      if (rawBody === undefined && input.body) rawBody = await input.arrayBuffer();
      signal ??= input.signal;
    } else url = new URL(String(input));
    const body = await bytesOf(rawBody, headers);
    method = (method ?? 'GET').toUpperCase();
    return toResponse(await one(url, method, headers, body, signal, init.redirect ?? 'follow', 0), method, signal);
  }) as typeof globalThis.fetch;

  async function request(url: string | URL, init: PolicyRequestInit = {}): Promise<PolicyResponse> {
    const res = await one(new URL(String(url)), (init.method ?? 'GET').toUpperCase(), { ...init.headers }, init.body, init.signal, 'follow', 0);
    return { status: res.statusCode ?? 0, statusText: res.statusMessage ?? '', headers: res.headers, body: decoded(res, init.signal) };
  }

  return { fetch, request };
}

/** A string or bytes as they are; any other body fetch accepts, read into bytes (with its type). */
async function bytesOf(body: BodyInit | null | undefined, headers: Record<string, string>): Promise<Uint8Array | string | undefined> {
  if (body == null) return undefined;
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  const r = new Response(body);
  const type = r.headers.get('content-type');
  if (type && !Object.keys(headers).some((k) => k.toLowerCase() === 'content-type')) headers['content-type'] = type;
  return new Uint8Array(await r.arrayBuffer());
}

function send(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: string | Uint8Array | undefined,
  signal: AbortSignal | undefined,
  lookup: ReturnType<typeof pinnedLookup>,
  agent: http.Agent,
  connectMs: number,
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const h = { ...headers };
    if (body != null && !Object.keys(h).some((k) => k.toLowerCase() === 'content-length')) {
      h['content-length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
    }
    const req = (url.protocol === 'https:' ? https : http).request(url, { method, headers: h, agent, lookup });
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return false;
      settled = true;
      clearTimeout(connectTimer);
      signal?.removeEventListener('abort', onAbort);
      fn();
      return true;
    };
    // A new socket that is not up in time (a kept-alive one is up already).
    const connectTimer = setTimeout(() => req.destroy(Object.assign(new Error('connect timeout'), { code: 'ETIMEDOUT' })), connectMs);
    req.once('socket', (socket) => {
      if (!socket.connecting) clearTimeout(connectTimer);
      else socket.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', () => clearTimeout(connectTimer));
    });
    const onAbort = () => {
      const reason = abortReason(signal!);
      if (finish(() => reject(reason))) req.destroy(reason as Error);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    req.on('response', (res) => {
      if (!finish(() => resolve(res))) res.destroy();
    });
    req.on('error', (e) => finish(() => reject(e)));
    req.end(body ?? undefined);
    mark('sent');
  });
}

/** The body of `res`, decoded (gzip, deflate, br), destroyed with the signal's reason when it aborts. */
function decoded(res: IncomingMessage, signal: AbortSignal | undefined): Readable {
  const encoding = String(res.headers['content-encoding'] ?? '').trim().toLowerCase();
  const decoder = encoding === 'gzip' || encoding === 'x-gzip' ? zlib.createGunzip() : encoding === 'deflate' ? zlib.createInflate() : encoding === 'br' ? zlib.createBrotliDecompress() : null;
  let source: Readable = res;
  if (decoder) {
    res.on('error', (e) => decoder.destroy(e));
    source = res.pipe(decoder);
  }
  if (signal) {
    const onAbort = () => source.destroy(abortReason(signal) as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    source.once('close', () => signal.removeEventListener('abort', onAbort));
  }
  return source;
}

function toResponse(res: IncomingMessage, method: string, signal: AbortSignal | undefined): Response {
  const source = decoded(res, signal);
  const headers = new Headers();
  for (let i = 0; i < res.rawHeaders.length; i += 2) headers.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
  const status = res.statusCode ?? 0;
  const nullBody = status === 101 || status === 204 || status === 205 || status === 304 || method === 'HEAD';
  if (nullBody) source.resume();
  return new Response(nullBody ? null : (Readable.toWeb(source) as ReadableStream<Uint8Array>), { status, statusText: res.statusMessage ?? '', headers });
}

function headersOf(h: HeadersInit | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!h) return out;
  if (h instanceof Headers) h.forEach((v, k) => (out[k] = v));
  else if (Array.isArray(h)) for (const [k, v] of h) out[k!] = v!;
  else for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k] = String(v);
  return out;
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}
