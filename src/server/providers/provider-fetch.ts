import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';

/**
 * The `fetch` the model providers' SDK clients call: the same contract as the global fetch for what
 * they send (a JSON or byte body, headers, an abort signal), over node:http with kept-alive
 * connections. Node 20's fetch spends about 1.5 ms of its own before a request leaves and its first
 * bytes come back (measured against a local provider: first streamed token 8.6 ms with fetch, 6.8 ms
 * this way), paid on every model call and so before every first token.
 *
 * Like fetch: a network failure rejects with `TypeError('fetch failed')` whose cause is the socket
 * error (the SDK makes it a retryable APICallError, toModelError reads the cause's code); an abort
 * rejects with the signal's reason (AbortError, or TimeoutError for AbortSignal.timeout) and, once
 * the body streams, errors the body with it; gzip, deflate and br bodies are decoded. What this does
 * not do itself goes to the global fetch: other body kinds (form data, streams), and redirects (the
 * 3xx answer is dropped and the request is made again by fetch, which follows it).
 */
export async function providerFetch(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
  const url = typeof input === 'string' ? new URL(input) : input instanceof URL ? input : null;
  const body = init.body;
  const plainBody = body == null || typeof body === 'string' || body instanceof Uint8Array;
  if (!url || !plainBody || (url.protocol !== 'http:' && url.protocol !== 'https:')) return globalThis.fetch(input, init);
  const signal = init.signal ?? undefined;
  if (signal?.aborted) throw abortReason(signal as AbortSignal);

  const res = await send(url, init.method ?? 'GET', headersOf(init.headers), body as string | Uint8Array | null | undefined, signal);
  if (res.statusCode && res.statusCode >= 300 && res.statusCode < 400 && res.headers.location) {
    res.resume();
    return globalThis.fetch(input, init);
  }

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
  const headers = new Headers();
  for (let i = 0; i < res.rawHeaders.length; i += 2) headers.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
  const status = res.statusCode ?? 0;
  const nullBody = status === 101 || status === 204 || status === 205 || status === 304 || init.method === 'HEAD';
  if (nullBody) source.resume();
  return new Response(nullBody ? null : (Readable.toWeb(source) as ReadableStream<Uint8Array>), { status, statusText: res.statusMessage ?? '', headers });
}

const agents = {
  'http:': new http.Agent({ keepAlive: true }),
  'https:': new https.Agent({ keepAlive: true }),
};

function send(url: URL, method: string, headers: Record<string, string>, body: string | Uint8Array | null | undefined, signal: AbortSignal | undefined): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    if (body != null && !Object.keys(headers).some((k) => k.toLowerCase() === 'content-length')) {
      headers['content-length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
    }
    const mod = url.protocol === 'https:' ? https : http;
    const req = mod.request(url, { method, headers, agent: agents[url.protocol as 'http:' | 'https:'] });
    let settled = false;
    const onAbort = () => {
      if (settled) return;
      settled = true;
      const reason = abortReason(signal!);
      req.destroy(reason as Error);
      reject(reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    req.on('response', (res) => {
      signal?.removeEventListener('abort', onAbort);
      if (settled) return void res.destroy();
      settled = true;
      resolve(res);
    });
    req.on('error', (e) => {
      signal?.removeEventListener('abort', onAbort);
      if (settled) return;
      settled = true;
      reject(new TypeError('fetch failed', { cause: e }));
    });
    req.end(body ?? undefined);
  });
}

function headersOf(h: RequestInit['headers']): Record<string, string> {
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
