/**
 * Validation messages as values: a zod issue or a server message becomes `{key, params}` (an i18n
 * key of the `kit` namespace or of the schema's own) or plain `text`. Forms store the encoded
 * descriptor in react-hook-form's `error.message` and translate it at render time, so a message
 * already on screen follows a language switch. Pure; no React.
 */
import type { z } from 'zod';

export interface MessageDescriptor {
  /** i18n key (`kit:validation.required`, or a key of the schema's namespaces). */
  key?: string;
  params?: Record<string, unknown>;
  /** A sentence to show as it is (a custom message that is not a key). */
  text?: string;
}

const MARK = '\u0001kit:';

/** Packs a descriptor into a string (react-hook-form errors carry strings). */
export function encodeMessage(d: MessageDescriptor): string {
  return MARK + JSON.stringify(d);
}

/**
 * Unpacks what {@link encodeMessage} made; any other string is read by {@link textToMessage}
 * (spec sentences become keys). Empty → null.
 */
export function decodeMessage(message: string | undefined | null): MessageDescriptor | null {
  if (!message) return null;
  if (message.startsWith(MARK)) {
    try {
      return JSON.parse(message.slice(MARK.length)) as MessageDescriptor;
    } catch {
      return { text: message.slice(MARK.length) };
    }
  }
  return textToMessage(message);
}

const k = (key: string, params?: Record<string, unknown>): MessageDescriptor => (params ? { key: `kit:validation.${key}`, params } : { key: `kit:validation.${key}` });

/** A key looks like `ns:a.b` or `a.b.c` (no spaces). */
const KEY_RE = /^(?:[\w-]+:)?[\w-]+(?:\.[\w-]+)+$|^[\w-]+:[\w.-]+$/;

const registered = new Map<string, string>();

/**
 * Gives custom English messages of a schema (the server says the same words) an i18n key, so they
 * translate on screen: a screen registers its schema's sentences once, at module load. The text
 * stays as the fallback when the key has no translation.
 * @example registerMessageKeys({ 'The SID is required for Oracle': 'database:messages.sidRequired' })
 */
export function registerMessageKeys(map: Readonly<Record<string, string>>): void {
  for (const [text, key] of Object.entries(map)) registered.set(text.trim(), key);
}

/**
 * A message written as text (a schema's custom message, or one from the server): the spec's own
 * sentences map to kit keys (so they translate), i18n-key-looking strings stay keys, anything else
 * is shown as written.
 * @example textToMessage('exceeds maximum length 50') // { key: 'kit:validation.maxLength', params: { max: 50 } }
 */
export function textToMessage(text: string): MessageDescriptor {
  const s = text.trim();
  const known = registered.get(s);
  if (known) return { key: known, text: s };
  if (/^this form field is required!?$/i.test(s)) return k('required');
  const max = /^exceeds maximum length (\d+)$/i.exec(s);
  if (max) return k('maxLength', { max: Number(max[1]) });
  if (/^the passwords entered twice are inconsistent$/i.test(s)) return k('passwordMismatch');
  if (KEY_RE.test(s)) return { key: s };
  return { text };
}

type RawIssue = z.core.$ZodRawIssue;

const isBlank = (v: unknown) => v === undefined || v === null || v === '' || (typeof v === 'number' && Number.isNaN(v));

/**
 * The message of a zod issue that has no custom message of its own (spec 5 wording):
 * a missing or empty value → required; too_big on a string → 'exceeds maximum length {max}';
 * bad formats → invalid email / URL / format; and so on.
 */
export function issueToMessage(issue: RawIssue): MessageDescriptor {
  const i = issue as RawIssue & {
    origin?: string;
    minimum?: number | bigint;
    maximum?: number | bigint;
    inclusive?: boolean;
    format?: string;
    expected?: string;
    divisor?: number;
  };
  const num = (v: number | bigint | undefined) => (typeof v === 'bigint' ? Number(v) : v);
  switch (i.code) {
    case 'invalid_type':
      if (isBlank(i.input)) return k('required');
      if (i.expected === 'int') return k('integer');
      if (i.expected === 'number') return k('notNumber');
      return k('invalid');
    case 'invalid_value':
      return isBlank(i.input) ? k('required') : k('invalidOption');
    case 'too_small': {
      const min = num(i.minimum) ?? 0;
      if (i.origin === 'string' || i.origin === 'array' || i.origin === 'set') {
        const empty = isBlank(i.input) || (Array.isArray(i.input) && i.input.length === 0);
        if (min <= 1 && empty) return k('required');
        return i.origin === 'string' ? k('minLength', { min }) : k('minItems', { min });
      }
      if (isBlank(i.input)) return k('required');
      return i.inclusive === false ? k('greaterThan', { min }) : k('min', { min });
    }
    case 'too_big': {
      const max = num(i.maximum) ?? 0;
      if (i.origin === 'string') return k('maxLength', { max });
      if (i.origin === 'array' || i.origin === 'set') return k('maxItems', { max });
      return i.inclusive === false ? k('lessThan', { max }) : k('max', { max });
    }
    case 'invalid_format':
      if (i.format === 'email') return k('invalidEmail');
      if (i.format === 'url') return k('invalidUrl');
      return k('invalidFormat');
    case 'not_multiple_of':
      return i.divisor === 1 ? k('integer') : k('invalid');
    case 'unrecognized_keys':
      return k('unknownKeys');
    default:
      return isBlank(i.input) ? k('required') : k('invalid');
  }
}

/**
 * A zod error map (per parse): gives every issue without a custom message an encoded descriptor.
 * Custom messages written in the schema win over it (zod's precedence) and are read by
 * {@link textToMessage} when shown.
 */
export const kitErrorMap = (issue: RawIssue) => encodeMessage(issueToMessage(issue));
