/** Request bodies of the guarded client, encoded to bytes once (redirects may send them again). */

/** A multipart field: text, or a file's bytes. */
export type MultipartField = { name: string; value: string } | { name: string; data: Uint8Array; filename: string; contentType?: string };

export interface BodyOptions {
  /** Raw body; give `content-type` in the headers. */
  body?: string | Uint8Array;
  /** Sent as JSON (`application/json`). */
  json?: unknown;
  /** Sent as `application/x-www-form-urlencoded`. */
  form?: Record<string, string | readonly string[]>;
  /** Sent as `multipart/form-data`. */
  multipart?: readonly MultipartField[];
}

export interface EncodedBody {
  bytes: Uint8Array;
  /** Set when the body kind decides it (a raw body keeps the caller's header). */
  contentType?: string;
}

export class BodyError extends Error {}

export async function encodeBody(opts: BodyOptions): Promise<EncodedBody | undefined> {
  const given = (['body', 'json', 'form', 'multipart'] as const).filter((k) => opts[k] !== undefined);
  if (given.length > 1) throw new BodyError(`Give one body, not ${given.join(' and ')}`);
  if (opts.json !== undefined) {
    const text = JSON.stringify(opts.json);
    if (text === undefined) throw new BodyError('The JSON body cannot be serialized');
    return { bytes: Buffer.from(text), contentType: 'application/json' };
  }
  if (opts.form) {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(opts.form)) for (const one of typeof v === 'string' ? [v] : v) params.append(k, one);
    return { bytes: Buffer.from(params.toString()), contentType: 'application/x-www-form-urlencoded' };
  }
  if (opts.multipart) {
    const fd = new FormData();
    for (const f of opts.multipart) {
      if ('data' in f) fd.append(f.name, new Blob([new Uint8Array(f.data)], { type: f.contentType ?? 'application/octet-stream' }), f.filename);
      else fd.append(f.name, f.value);
    }
    // The platform's encoder writes the parts and picks the boundary.
    const encoded = new Request('http://encoder.invalid/', { method: 'POST', body: fd });
    return { bytes: new Uint8Array(await encoded.arrayBuffer()), contentType: encoded.headers.get('content-type') ?? undefined };
  }
  if (opts.body !== undefined) return { bytes: typeof opts.body === 'string' ? Buffer.from(opts.body) : opts.body };
  return undefined;
}

/** Text of a response body in the charset its content type names (UTF-8 when none or unknown). */
export function decodeText(bytes: Uint8Array, contentType: string): string {
  const charset = /charset\s*=\s*"?([\w.:-]+)"?/i.exec(contentType)?.[1];
  if (charset) {
    try {
      return new TextDecoder(charset).decode(bytes);
    } catch {
      // An unknown label: fall through to UTF-8.
    }
  }
  return new TextDecoder().decode(bytes);
}
