/**
 * Masking of secret values (a flow's secret environment variables). Nodes get the clear value; what
 * leaves a run (its events, its result, and through them the stream, the stored trace, the log,
 * messages and error texts) carries `******` wherever a secret's value occurs, in any string of any
 * nesting, object keys included.
 *
 * A value is masked as it is written and in the forms a node commonly turns it into: percent-encoded
 * (encodeURIComponent, encodeURI, as a URL parser leaves it in a query or path), form-encoded and
 * JSON-escaped. Other transformations (base64 in a Basic authorization header, hashing, slicing,
 * upper-casing, a number a node made of it) are not recognisable and are not masked: numbers are
 * left alone, since timings and token counts must stay numbers. Masking keeps secrets out of what
 * people read; it cannot stop a member who edits the flow from sending a secret somewhere.
 *
 * Short secrets: a value of fewer than {@link MIN_SECRET_SUBSTRING} characters is masked only where a
 * whole string equals it. Masking every `a` or `42` inside every text would make traces unreadable
 * and would tell, by the holes, what the value is; such a value is no secret worth the name anyway.
 */

export const SECRET_MASK = '******';
/** Secrets at least this long are masked wherever they occur inside a string. */
export const MIN_SECRET_SUBSTRING = 4;

export interface SecretMasker {
  /** False when there is nothing to mask (then every method hands its input back). */
  readonly active: boolean;
  text(s: string): string;
  /** A copy of `v` with every string (and object key) masked; plain JSON-like data is expected. */
  value<T>(v: T): T;
  /**
   * Streamed text (chunks of one stream, in order): what can be sent now. The end of the text that
   * could be the start of a secret is held back until the next chunk shows whether it is one.
   */
  chunk(stream: string, text: string): string;
  /** What a stream still holds back (its end: nothing more will come). */
  flush(stream: string): string;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The forms of a value that are masked: as given, percent-encoded, form-encoded, JSON-escaped. */
function formsOf(value: string): string[] {
  const forms = new Set([value, JSON.stringify(value).slice(1, -1)]);
  try {
    forms.add(encodeURIComponent(value));
    forms.add(encodeURI(value));
    forms.add(new URLSearchParams({ v: value }).toString().slice(2));
    // As a URL parser leaves it in a query or a path (an HTTP node's URL is parsed before it goes out).
    if (!/[#?]/.test(value)) {
      forms.add(new URL(`http://h/?${value}`).search.slice(1));
      forms.add(new URL(`http://h/${value}`).pathname.slice(1));
    }
  } catch {
    // A value with a lone surrogate has no percent-encoding.
  }
  return [...forms];
}

const PASS: SecretMasker = { active: false, text: (s) => s, value: (v) => v, chunk: (_s, t) => t, flush: () => '' };

/** A masker for these secret values (strings; numbers are taken as their text; empty ones ignored). */
export function createSecretMasker(values: Iterable<unknown>): SecretMasker {
  const whole = new Set<string>();
  const inner = new Set<string>();
  for (const v of values) {
    const s = typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'bigint' ? String(v) : '';
    if (!s) continue;
    for (const f of formsOf(s)) (f.length >= MIN_SECRET_SUBSTRING ? inner : whole).add(f);
  }
  if (!whole.size && !inner.size) return PASS;
  // Longest first: a secret that contains another is masked whole.
  const long = [...inner].sort((a, b) => b.length - a.length);
  const re = long.length ? new RegExp(long.map(escapeRe).join('|'), 'g') : undefined;
  const maxLen = long.length ? long[0].length : 0;

  const text = (s: string): string => {
    if (whole.has(s)) return SECRET_MASK;
    if (!re || s.length < MIN_SECRET_SUBSTRING) return s;
    re.lastIndex = 0;
    return re.test(s) ? s.replace(re, SECRET_MASK) : s;
  };

  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return text(v);
    if (v === null || typeof v !== 'object') return v;
    if (Array.isArray(v)) return v.map(walk);
    if (typeof (v as { toJSON?: unknown }).toJSON === 'function') return walk((v as { toJSON(): unknown }).toJSON());
    if (ArrayBuffer.isView(v)) return v;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[text(k)] = walk(x);
    return out;
  };

  const held = new Map<string, string>();
  /** How much of the end of `s` could be the beginning of a secret (a proper prefix of one). */
  const pendingLength = (s: string): number => {
    for (let k = Math.min(maxLen - 1, s.length); k > 0; k--) {
      const tail = s.slice(s.length - k);
      if (long.some((f) => f.startsWith(tail))) return k;
    }
    return 0;
  };

  return {
    active: true,
    text,
    value<T>(v: T): T {
      try {
        return walk(v) as T;
      } catch {
        // Too deep or circular to copy: nothing of it goes out rather than something in clear.
        return SECRET_MASK as T;
      }
    },
    chunk(stream, t) {
      const all = (held.get(stream) ?? '') + t;
      if (!re) return all;
      // Hold back only after the last whole secret: that one is masked now.
      let lastEnd = 0;
      re.lastIndex = 0;
      for (let m = re.exec(all); m; m = re.exec(all)) lastEnd = m.index + m[0].length;
      const cut = all.length - pendingLength(all.slice(lastEnd));
      if (cut < all.length) held.set(stream, all.slice(cut));
      else held.delete(stream);
      return all.slice(0, cut).replace(re, SECRET_MASK);
    },
    flush(stream) {
      const rest = held.get(stream) ?? '';
      held.delete(stream);
      return rest;
    },
  };
}
