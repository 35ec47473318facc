/**
 * The spec-5 login checks (phone required and valid, email required and valid, verification code
 * required), without zod: the login page runs them in its first load (no zod there, issue 21), the
 * server's schemas (./login-code.ts) run the same ones. Each failure is a catalogue code (./errors.ts).
 */
export type LoginCodeChannel = 'email' | 'sms';
export type LoginRuleCode = 'LOGIN-1000' | 'LOGIN-1001' | 'LOGIN-1002' | 'LOGIN-1003' | 'LOGIN-1004' | 'LOGIN-1005';

/** A mainland China mobile number (11 digits, 13x–19x) or an international one (+country code, 7–15 digits). */
const PHONE_RE = /^(1[3-9]\d{9}|\+[1-9]\d{6,14})$/;
/** A plain address check (one @, a dot in the domain, no spaces): what a login form can know. */
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** The codes Weft sends: 6 digits. */
export const LOGIN_CODE_RE = /^\d{6}$/;

/**
 * The phone as stored and compared: spaces, dashes and brackets dropped; a +86 mainland number
 * written without its country code (users type it either way).
 */
export function normalizePhone(v: string): string {
  const p = v.replace(/[\s()-]/g, '');
  const cn = /^\+86(1[3-9]\d{9})$/.exec(p);
  return cn ? cn[1] : p;
}

/** The target as stored and compared: a normalized phone, or a trimmed lower-case email. */
export const normalizeTarget = (channel: LoginCodeChannel, v: string) => (channel === 'sms' ? normalizePhone(v) : v.trim().toLowerCase());

/** The spec-5 check of a phone or email, as a catalogue code; null when it passes. */
export function targetProblem(channel: LoginCodeChannel, v: string): LoginRuleCode | null {
  const t = normalizeTarget(channel, v);
  if (channel === 'sms') return t === '' ? 'LOGIN-1000' : PHONE_RE.test(t) ? null : 'LOGIN-1001';
  return t === '' ? 'LOGIN-1002' : t.length <= 128 && EMAIL_RE.test(t) ? null : 'LOGIN-1003';
}

/** The spec-5 check of a verification code; null when it passes. */
export function codeProblem(v: string): LoginRuleCode | null {
  const c = v.trim();
  return c === '' ? 'LOGIN-1004' : LOGIN_CODE_RE.test(c) ? null : 'LOGIN-1005';
}

