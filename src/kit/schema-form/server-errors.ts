/**
 * Server validation errors back onto form fields. The server answers a rejected body with
 * `{code: 'VALIDATION-1000', msg, data: [{path, message}]}` where `path` is `body/identifier`
 * (fastify's validation context + JSON pointer). Pure; no React.
 */
import type { z } from 'zod';
import { encodeMessage, issueToMessage, textToMessage, type MessageDescriptor } from './messages';

export interface ServerFieldError {
  /** Dotted form path ('identifier', 'tags.0'). */
  name: string;
  message: MessageDescriptor;
}

/** `body/tags/0` → `tags.0`; `['tags', 0]` → `tags.0`; `/identifier` → `identifier`. */
export function normalizeServerPath(path: unknown): string {
  if (Array.isArray(path)) return path.map(String).join('.');
  if (typeof path !== 'string') return '';
  return path
    .replace(/^(body|querystring|query|params|headers)(?=[/.[]|$)/, '')
    .replace(/\[(\d+)\]/g, '.$1')
    .split(/[/.]/)
    .filter(Boolean)
    .join('.');
}

/**
 * zod's own English wording ("Too small: expected string to have >=12 characters"), as the server
 * answers issues of schemas it did not write itself (a plugin's credentials schema). Custom
 * sentences never start so.
 */
const ZOD_DEFAULT_RE = /^(Invalid input|Too small|Too big|Invalid option|Unrecognized keys?|Invalid string|Invalid format)\b/;

/**
 * The message of an issue in zod's default wording, said in the user's language from what the
 * server sends beside it (`rule`: the zod code, `origin`, `limit`); null for any other message.
 */
function ruleMessage(item: { message?: unknown; rule?: unknown; origin?: unknown; limit?: unknown }): MessageDescriptor | null {
  if (typeof item.rule !== 'string' || typeof item.message !== 'string' || !ZOD_DEFAULT_RE.test(item.message)) return null;
  const limit = typeof item.limit === 'number' ? item.limit : undefined;
  const origin = typeof item.origin === 'string' ? item.origin : undefined;
  // What the value was is not sent: "received undefined" is a missing one, and a string or list
  // that must have at least one is an empty one; anything else was there (0 stands for it).
  const blank = /received undefined$/.test(item.message) || (item.rule === 'too_small' && (origin === 'string' || origin === 'array') && (limit ?? 0) <= 1);
  const issue = { code: item.rule, origin, minimum: limit, maximum: limit, input: blank ? undefined : 0 } as unknown as z.core.$ZodRawIssue;
  return { ...issueToMessage(issue), text: item.message };
}

interface ErrorLike {
  code?: unknown;
  msg?: unknown;
  data?: unknown;
}

/**
 * The field errors an error carries: an ApiError (or anything shaped like it) with an array `data`
 * of `{path, message}`. Null when it carries none.
 */
export function serverFieldErrors(err: unknown): ServerFieldError[] | null {
  if (!err || typeof err !== 'object') return null;
  const data = (err as ErrorLike).data;
  if (!Array.isArray(data)) return null;
  const out: ServerFieldError[] = [];
  for (const item of data) {
    if (!item || typeof item !== 'object') continue;
    const { path, message } = item as { path?: unknown; message?: unknown };
    out.push({ name: normalizeServerPath(path), message: ruleMessage(item) ?? textToMessage(typeof message === 'string' ? message : '') });
  }
  return out.length ? out : null;
}

/**
 * Splits server field errors into those of known fields (by the first path segment) and the rest.
 * `prefix`: where the fields sit in the body (`'values'`: `values.api_key` is the field `api_key`).
 * @example splitServerErrors(err, ['identifier', 'sk'])
 */
export function splitServerErrors(err: unknown, fieldNames: readonly string[], prefix?: string) {
  const strip = prefix ? `${normalizeServerPath(prefix)}.` : '';
  const all = (serverFieldErrors(err) ?? []).map((e) => (strip && e.name.startsWith(strip) ? { ...e, name: e.name.slice(strip.length) } : e));
  const known: { name: string; message: string }[] = [];
  const rest: ServerFieldError[] = [];
  for (const e of all) {
    const top = e.name.split('.')[0];
    if (top && fieldNames.includes(top)) known.push({ name: e.name, message: encodeMessage(e.message) });
    else rest.push(e);
  }
  return { known, rest };
}

/** What a failed submit shows above the buttons: the server's message, or a catalogue text. */
export function submitErrorMessage(err: unknown): MessageDescriptor {
  if (err && typeof err === 'object') {
    const { code, msg } = err as ErrorLike;
    const text = typeof msg === 'string' && msg ? msg : undefined;
    // The catalogue's translated text when the code has one, else the server's own words.
    if (typeof code === 'string' && /^[A-Z]+-\d+$/.test(code)) return { key: `errors:codes.${code}`, text };
    if (text) return textToMessage(text);
  }
  if (err instanceof Error && err.message) return { text: err.message };
  return { key: 'kit:form.failed' };
}
