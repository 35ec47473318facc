import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { pipeline, type Readable } from 'node:stream';
import zlib from 'node:zlib';
import { NodeExecutionError, type HttpClient, type HttpRequest, type HttpResponse } from '../../plugin-sdk/executor';
import { BlockedAddressError, guardedLookup, isBlockedAddress, systemResolver, type Resolver } from './address-guard';
import { BodyError, decodeText, encodeBody, type BodyOptions } from './request-body';

/**
 * The one outbound HTTP client of nodes and tools: connect, read and total timeouts, a response
 * size limit enforced while streaming, redirects followed with every hop checked again, and no
 * requests to private, loopback or link-local addresses (every resolved address is checked, and the
 * connection goes to the address checked) unless the server allows them.
 */

export const HTTP_CLIENT_ERRORS = {
  URL_INVALID: 'HTTP-URL-INVALID',
  BLOCKED: 'HTTP-ADDRESS-BLOCKED',
  TIMEOUT: 'HTTP-TIMEOUT',
  TOO_LARGE: 'HTTP-RESPONSE-TOO-LARGE',
  TOO_MANY_REDIRECTS: 'HTTP-TOO-MANY-REDIRECTS',
  BODY_INVALID: 'HTTP-BODY-INVALID',
  NETWORK: 'HTTP-NETWORK-ERROR',
  ABORTED: 'HTTP-ABORTED',
} as const;

export interface GuardedHttpOptions {
  /** Allow private, loopback and link-local addresses (`WEFT_HTTP_ALLOW_PRIVATE`). Default false. */
  allowPrivate?: boolean;
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
  /** Host name resolution (tests map names to addresses). Default: the OS resolver. */
  resolve?: Resolver;
  /**
   * Which addresses to refuse (true = refuse); replaces the built-in ranges, e.g. to let one
   * intranet service through. Ignored when `allowPrivate` is set.
   */
  refuseAddress?: (address: string) => boolean;
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

/**
 * Creates the guarded client.
 * @example
 * const http = createGuardedHttpClient({ allowPrivate: settings.httpAllowPrivate });
 * const res = await http.request({ method: 'POST', url: 'https://api.example.com/items', json: { name: 'a' }, signal });
 * res.status; res.body; res.contentType;
 */
export function createGuardedHttpClient(options: GuardedHttpOptions = {}): GuardedHttpClient {
  const o = {
    allowPrivate: options.allowPrivate ?? false,
    connectTimeoutMs: options.connectTimeoutMs ?? 10_000,
    readTimeoutMs: options.readTimeoutMs ?? 30_000,
    totalTimeoutMs: options.totalTimeoutMs ?? 60_000,
    maxResponseBytes: options.maxResponseBytes ?? 10 * 1024 * 1024,
    maxRedirects: options.maxRedirects ?? 5,
    userAgent: options.userAgent ?? 'Weft/0.1',
  };
  const refuse = o.allowPrivate ? () => false : (options.refuseAddress ?? isBlockedAddress);
  const lookup = guardedLookup(options.resolve ?? systemResolver, refuse);

  function checkUrl(raw: string): URL {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw fail(HTTP_CLIENT_ERRORS.URL_INVALID, `"${raw}" is not a valid URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw fail(HTTP_CLIENT_ERRORS.URL_INVALID, `Only http and https URLs can be requested, not ${url.protocol}`);
    if (url.username || url.password) throw fail(HTTP_CLIENT_ERRORS.URL_INVALID, 'Credentials in the URL are not accepted: send them in a header');
    // Connections to an IP literal skip the lookup, so the literal is checked here.
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (net.isIP(host) && refuse(host)) {
      throw fail(HTTP_CLIENT_ERRORS.BLOCKED, `${host} is a private or local address that requests may not reach`, { host });
    }
    return url;
  }

  /** One request/response exchange; resolves once the headers are in. */
  function exchange(url: URL, method: string, headers: Record<string, string>, body: Uint8Array | undefined, limits: { connectMs: number; readMs: number }, signal: AbortSignal) {
    return new Promise<IncomingMessage>((resolve, reject) => {
      const secure = url.protocol === 'https:';
      const req = (secure ? https : http).request(url, { method, headers, lookup, agent: false, signal });
      const connectTimer = setTimeout(
        () => req.destroy(fail(HTTP_CLIENT_ERRORS.TIMEOUT, `Could not connect to ${url.host} within ${limits.connectMs} ms`, { phase: 'connect' })),
        limits.connectMs,
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
          throw translate(e, url, signal);
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
        const bytes = method === 'HEAD' ? new Uint8Array() : await readBody(res, maxBytes, signal).catch((e: unknown) => Promise.reject(translate(e, url, signal)));
        const contentType = String(res.headers['content-type'] ?? '');
        const outHeaders: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) outHeaders[k] = Array.isArray(v) ? v.join(', ') : v;
        return { status: res.statusCode ?? 0, headers: outHeaders, body: decodeText(bytes, contentType), bytes, contentType, url: url.toString(), redirects };
      }
    } finally {
      clearTimeout(timer);
    }
  }

  /** Errors as values with codes: what went wrong where, never a bare socket error. */
  function translate(e: unknown, url: URL, signal: AbortSignal): unknown {
    if (e instanceof NodeExecutionError) return e;
    if (e instanceof BlockedAddressError || (e as { cause?: unknown })?.cause instanceof BlockedAddressError) {
      const b = e instanceof BlockedAddressError ? e : ((e as { cause: BlockedAddressError }).cause);
      return fail(HTTP_CLIENT_ERRORS.BLOCKED, b.message, { host: b.hostname, address: b.address });
    }
    if (signal.aborted) {
      const reason: unknown = signal.reason;
      if (reason instanceof NodeExecutionError) return reason;
      return fail(HTTP_CLIENT_ERRORS.ABORTED, 'The request was stopped');
    }
    const err = e as NodeJS.ErrnoException;
    return fail(HTTP_CLIENT_ERRORS.NETWORK, `The request to ${url.host} failed: ${err?.code ? `${err.code} ` : ''}${err?.message ?? String(e)}`, { code: err?.code });
  }

  return { request } as GuardedHttpClient;
}
