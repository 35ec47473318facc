import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { pipeline, type Readable } from 'node:stream';
import zlib from 'node:zlib';
import { NodeExecutionError, type HttpClient, type HttpRequest, type HttpResponse } from '../../plugin-sdk/executor';
import { ErrorCode } from '../../../schemas/errors';
import { createOutboundPolicy, hostPort, OutboundConnectError, OutboundRefusedError, pinnedLookup, type AdmittedTarget, type OutboundPolicy, type OutboundPurpose } from '../security/outbound-policy';
import type { Resolver } from './address-guard';
import { BodyError, decodeText, encodeBody, type BodyOptions } from './request-body';

/**
 * The one outbound HTTP client of nodes, tools and knowledge URLs: connect, read and total
 * timeouts, a response size limit enforced while streaming, redirects followed with every hop
 * admitted again, and every destination admitted by the outbound policy (every resolved address
 * checked, the connection made to the address checked). Whatever stops an allowed destination from
 * answering before its headers arrive is one NETWORK-1001 "could not connect".
 */

export const HTTP_CLIENT_ERRORS = {
  URL_INVALID: 'HTTP-URL-INVALID',
  /** Refused by the outbound policy, before any connection. */
  BLOCKED: ErrorCode.NETWORK_NOT_ALLOWED,
  /** A response that started and then stalled, or outlasted the request's time limit. */
  TIMEOUT: 'HTTP-TIMEOUT',
  TOO_LARGE: 'HTTP-RESPONSE-TOO-LARGE',
  TOO_MANY_REDIRECTS: 'HTTP-TOO-MANY-REDIRECTS',
  BODY_INVALID: 'HTTP-BODY-INVALID',
  /** No answer from an allowed destination: refused, reset, timed out, not HTTP, TLS failed. */
  NETWORK: ErrorCode.NETWORK_UNREACHABLE,
  ABORTED: 'HTTP-ABORTED',
} as const;

export interface GuardedHttpOptions {
  /** The outbound policy that admits every destination. Default: nothing beyond public addresses. */
  policy?: OutboundPolicy;
  /** What the requests are for (the policy's log). Default 'http'. */
  purpose?: OutboundPurpose;
  /** Until the connection (and TLS) is up, DNS included. Default 10 s. */
  connectTimeoutMs?: number;
  /** Longest silence while waiting for the response or its next bytes. Default 30 s. */
  readTimeoutMs?: number;
  /** The whole exchange, redirects included, when the request names no `timeoutMs`. Default 60 s. */
  totalTimeoutMs?: number;
  /** Largest response body, after decompression. Default 10 MB. */
  maxResponseBytes?: number;
  /** Default 5. */
  maxRedirects?: number;
  userAgent?: string;
  /** Host name resolution of the default policy (tests map names to addresses); ignored with `policy`. */
  resolve?: Resolver;
}

/** What the client takes: the executors' {@link HttpRequest} plus query, body kinds and per-call limits. */
export interface GuardedRequest extends Omit<HttpRequest, 'signal' | 'body'>, BodyOptions {
  signal?: AbortSignal;
  /** Appended to the URL's query. */
  query?: Record<string, string | number | boolean | readonly (string | number | boolean)[] | undefined>;
  connectTimeoutMs?: number;
  readTimeoutMs?: number;
  maxResponseBytes?: number;
  maxRedirects?: number;
  /** Default true; false returns the 3xx response itself. */
  followRedirects?: boolean;
}

export interface GuardedResponse extends HttpResponse {
  /** The URL that answered (after redirects). */
  url: string;
  /** Every URL redirected to, in order. */
  redirects: string[];
  /** The `content-type` header ('' when absent). */
  contentType: string;
  bytes: Uint8Array;
}

/** The guarded client: usable as `services.http` and directly with the richer request. */
export interface GuardedHttpClient extends HttpClient {
  request(req: GuardedRequest): Promise<GuardedResponse>;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Headers that must not follow a redirect to another origin. */
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

const fail = (code: string, message: string, detail?: unknown) => new NodeExecutionError(code, message, detail);

/** A policy that opens nothing beyond public addresses (the default of a client made without one). */
export const closedPolicy = (resolver?: Resolver) => createOutboundPolicy({ settings: { outboundAllow: [], mcpStdioCommands: [], httpAllowPrivate: false }, resolver });

/**
 * Creates the guarded client.
 * @example
 * const http = createGuardedHttpClient({ policy: ctx.outbound });
 * const res = await http.request({ method: 'POST', url: 'https://api.example.com/items', json: { name: 'a' }, signal });
 * res.status; res.body; res.contentType;
 */
export function createGuardedHttpClient(options: GuardedHttpOptions = {}): GuardedHttpClient {
  const policy = options.policy ?? closedPolicy(options.resolve);
  const purpose = options.purpose ?? 'http';
  const o = {
    connectTimeoutMs: options.connectTimeoutMs ?? 10_000,
    readTimeoutMs: options.readTimeoutMs ?? 30_000,
    totalTimeoutMs: options.totalTimeoutMs ?? 60_000,
    maxResponseBytes: options.maxResponseBytes ?? 10 * 1024 * 1024,
    maxRedirects: options.maxRedirects ?? 5,
    userAgent: options.userAgent ?? 'Weft/0.1',
  };

  function checkUrl(raw: string): URL {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw fail(HTTP_CLIENT_ERRORS.URL_INVALID, `"${raw}" is not a valid URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw fail(HTTP_CLIENT_ERRORS.URL_INVALID, `Only http and https URLs can be requested, not ${url.protocol}`);
    if (url.username || url.password) throw fail(HTTP_CLIENT_ERRORS.URL_INVALID, 'Credentials in the URL are not accepted: send them in a header');
    return url;
  }

  const portOf = (url: URL) => (url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80);

  /** The policy's answer for the URL's host and port, within the connect time (DNS included). */
  async function admit(url: URL, connectMs: number, signal: AbortSignal): Promise<AdmittedTarget> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(fail(HTTP_CLIENT_ERRORS.TIMEOUT, 'DNS took too long', { phase: 'connect' })), connectMs);
    });
    const aborted = new Promise<never>((_, reject) => {
      if (signal.aborted) reject(signal.reason);
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
    aborted.catch(() => undefined);
    try {
      return await Promise.race([policy.admitUrl(url, purpose), timeout, aborted]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** One request/response exchange; resolves once the headers are in. */
  async function exchange(url: URL, method: string, headers: Record<string, string>, body: Uint8Array | undefined, limits: { connectMs: number; readMs: number }, signal: AbortSignal) {
    const started = Date.now();
    const target = await admit(url, limits.connectMs, signal);
    return new Promise<IncomingMessage>((resolve, reject) => {
      const secure = url.protocol === 'https:';
      const req = (secure ? https : http).request(url, { method, headers, lookup: pinnedLookup(target), agent: false, signal });
      const connectTimer = setTimeout(
        () => req.destroy(fail(HTTP_CLIENT_ERRORS.TIMEOUT, `Could not connect to ${url.host} within ${limits.connectMs} ms`, { phase: 'connect' })),
        Math.max(1, limits.connectMs - (Date.now() - started)),
      );
      req.once('socket', (socket) => {
        socket.once(secure ? 'secureConnect' : 'connect', () => clearTimeout(connectTimer));
      });
      // An idle socket for this long, before or during the response, ends the exchange.
      let response: IncomingMessage | undefined;
      req.setTimeout(limits.readMs, () => {
        const err = fail(HTTP_CLIENT_ERRORS.TIMEOUT, `${url.host} sent nothing for ${limits.readMs} ms`, { phase: 'read' });
        // Once the response is being read, it is the response that must fail with this reason.
        response?.destroy(err);
        req.destroy(err);
      });
      req.once('response', (res) => {
        clearTimeout(connectTimer);
        response = res;
        resolve(res);
      });
      req.once('error', (e) => {
        clearTimeout(connectTimer);
        reject(e);
      });
      req.end(body);
    });
  }

  async function readBody(res: IncomingMessage, max: number, signal: AbortSignal): Promise<Uint8Array> {
    const length = Number(res.headers['content-length']);
    const encoding = String(res.headers['content-encoding'] ?? '').trim().toLowerCase();
    const tooLarge = () => fail(HTTP_CLIENT_ERRORS.TOO_LARGE, `The response is larger than the limit of ${max} bytes`, { limit: max });
    if (!encoding && Number.isFinite(length) && length > max) {
      res.destroy();
      throw tooLarge();
    }
    // Decompressed bytes are what count, so a small compressed bomb is stopped as it inflates.
    const decoder =
      encoding === 'gzip' || encoding === 'x-gzip' ? zlib.createGunzip() : encoding === 'deflate' ? zlib.createInflate() : encoding === 'br' ? zlib.createBrotliDecompress() : undefined;
    // pipeline, not pipe: a response that fails midway (timeout, abort) must fail the decoder too.
    const stream: Readable = decoder ? pipeline(res, decoder, () => undefined) : res;
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of stream) {
        size += (chunk as Buffer).length;
        if (size > max) throw tooLarge();
        chunks.push(chunk as Buffer);
      }
    } catch (e) {
      throw signal.aborted && !(e instanceof NodeExecutionError) ? signal.reason : e;
    } finally {
      if (stream !== res) stream.destroy();
      res.destroy();
    }
    return new Uint8Array(Buffer.concat(chunks));
  }

  async function request(req: GuardedRequest | HttpRequest): Promise<GuardedResponse> {
    const r = req as GuardedRequest;
    let url = checkUrl(r.url);
    for (const [k, v] of Object.entries(r.query ?? {})) {
      if (v === undefined) continue;
      for (const one of Array.isArray(v) ? v : [v]) url.searchParams.append(k, String(one));
    }
    let encoded;
    try {
      encoded = await encodeBody(r);
    } catch (e) {
      if (e instanceof BodyError) throw fail(HTTP_CLIENT_ERRORS.BODY_INVALID, e.message);
      throw e;
    }
    let method = (r.method || 'GET').toUpperCase();
    let body = encoded?.bytes;
    const headers: Record<string, string> = { 'user-agent': o.userAgent, 'accept-encoding': 'gzip, deflate, br' };
    for (const [k, v] of Object.entries(r.headers ?? {})) headers[k.toLowerCase()] = v;
    if (encoded?.contentType) headers['content-type'] = encoded.contentType;

    const totalMs = r.timeoutMs ?? o.totalTimeoutMs;
    const limits = { connectMs: r.connectTimeoutMs ?? o.connectTimeoutMs, readMs: r.readTimeoutMs ?? o.readTimeoutMs };
    const maxBytes = r.maxResponseBytes ?? o.maxResponseBytes;
    const maxRedirects = r.maxRedirects ?? o.maxRedirects;
    const total = new AbortController();
    const timer = setTimeout(() => total.abort(fail(HTTP_CLIENT_ERRORS.TIMEOUT, `The request took longer than ${totalMs} ms`, { phase: 'total' })), totalMs);
    const signal = r.signal ? AbortSignal.any([r.signal, total.signal]) : total.signal;
    const redirects: string[] = [];
    try {
      for (;;) {
        if (body) headers['content-length'] = String(body.byteLength);
        else delete headers['content-length'];
        let res: IncomingMessage;
        try {
          res = await exchange(url, method, headers, body, limits, signal);
        } catch (e) {
          throw translate(e, url, signal, 'before');
        }
        const location = res.headers.location;
        if (r.followRedirects !== false && REDIRECTS.has(res.statusCode ?? 0) && location) {
          res.destroy();
          if (redirects.length >= maxRedirects) throw fail(HTTP_CLIENT_ERRORS.TOO_MANY_REDIRECTS, `More than ${maxRedirects} redirects`, { redirects });
          let next: URL;
          try {
            next = checkUrl(new URL(location, url).toString());
          } catch (e) {
            throw e instanceof NodeExecutionError ? fail(e.code, `Redirect refused: ${e.message}`, { redirects, location }) : e;
          }
          if (next.origin !== url.origin) for (const h of CREDENTIAL_HEADERS) delete headers[h];
          // As browsers do: 303, and 301/302 after a POST, continue as a GET without the body.
          if ((res.statusCode === 303 && method !== 'HEAD') || ((res.statusCode === 301 || res.statusCode === 302) && method === 'POST')) {
            method = 'GET';
            body = undefined;
            delete headers['content-type'];
          }
          url = next;
          redirects.push(url.toString());
          continue;
        }
        const bytes = method === 'HEAD' ? new Uint8Array() : await readBody(res, maxBytes, signal).catch((e: unknown) => Promise.reject(translate(e, url, signal, 'after')));
        const contentType = String(res.headers['content-type'] ?? '');
        const outHeaders: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) outHeaders[k] = Array.isArray(v) ? v.join(', ') : v;
        return { status: res.statusCode ?? 0, headers: outHeaders, body: decodeText(bytes, contentType), bytes, contentType, url: url.toString(), redirects };
      }
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Errors as values with codes, never a bare socket error. Before the response's headers, every
   * failure of an admitted destination (refused, reset, DNS, timeouts, TLS, not HTTP) is the one
   * NETWORK-1001 "could not connect", its detail only in the server's log: the answers must not
   * tell an open port from a closed one.
   */
  function translate(e: unknown, url: URL, signal: AbortSignal, when: 'before' | 'after'): unknown {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const port = portOf(url);
    const unreachable = (cause: unknown) => {
      const err = cause instanceof OutboundConnectError ? cause : policy.connectFailed(purpose, host, port, cause);
      return fail(HTTP_CLIENT_ERRORS.NETWORK, err.message, { host: hostPort(host, port) });
    };
    if (e instanceof OutboundRefusedError) return fail(HTTP_CLIENT_ERRORS.BLOCKED, e.message, { host: hostPort(host, port) });
    if (e instanceof OutboundConnectError) return unreachable(e);
    // Node refuses a header or method it cannot send: the request's fault, not the network's.
    const code = (e as NodeJS.ErrnoException | undefined)?.code;
    if (typeof code === 'string' && /^ERR_(INVALID|HTTP_INVALID|UNESCAPED)/.test(code)) return fail(HTTP_CLIENT_ERRORS.BODY_INVALID, `The request cannot be sent: ${(e as Error).message}`);
    const callerStopped = signal.aborted && !(signal.reason instanceof NodeExecutionError);
    if (callerStopped) return fail(HTTP_CLIENT_ERRORS.ABORTED, 'The request was stopped');
    if (when === 'before') {
      // A time limit that ran out before any answer is the same as no answer.
      const reason: unknown = signal.aborted ? signal.reason : e;
      if (reason instanceof NodeExecutionError && reason.code !== HTTP_CLIENT_ERRORS.TIMEOUT) return reason;
      return unreachable(reason);
    }
    if (e instanceof NodeExecutionError) return e;
    if (signal.aborted && signal.reason instanceof NodeExecutionError) return signal.reason;
    return unreachable(e);
  }

  return { request } as GuardedHttpClient;
}
