import { z } from 'zod';
import { Id } from './common';
import { ErrorCode } from './errors';
import { codeProblem, targetProblem } from './login-code-rules';

export { LOGIN_CODE_RE, normalizePhone, normalizeTarget, codeProblem, targetProblem } from './login-code-rules';

/**
 * Verification-code sign-in (spec 5 login variants: phone with a code sent by SMS, email with a code
 * sent by mail). The spec's rules: phone required and valid; email required and valid; verification
 * code required. Each failure carries its own catalogue code (LOGIN-1000…1004), so the client says it
 * in the user's language.
 */
export const LoginCodeChannel = z.enum(['email', 'sms']);
export type LoginCodeChannel = z.infer<typeof LoginCodeChannel>;

const MESSAGES: Partial<Record<ErrorCode, string>> = {
  [ErrorCode.LOGIN_PHONE_REQUIRED]: 'Please enter the phone number',
  [ErrorCode.LOGIN_PHONE_INVALID]: 'Please enter a valid phone number',
  [ErrorCode.LOGIN_EMAIL_REQUIRED]: 'Please enter the email',
  [ErrorCode.LOGIN_EMAIL_INVALID]: 'Please enter a valid email',
  [ErrorCode.LOGIN_CODE_REQUIRED]: 'Please enter the verification code',
  [ErrorCode.LOGIN_CODE_INVALID]: 'The verification code is wrong or has expired',
};

const issue = (code: ErrorCode, path: string) => ({ code: 'custom' as const, message: MESSAGES[code] ?? code, params: { code }, path: [path] });

const base = {
  tenantId: Id,
  channel: LoginCodeChannel,
  /** The phone number (channel sms) or the email address (channel email). */
  target: z.string().max(200),
};

/** POST /console/base/send_code: send a sign-in code to a user's phone or email. */
export const SendLoginCodeBody = z.object({ ...base, /** The login page's language: the message's. */ lang: z.enum(['zh', 'en']).optional() }).superRefine((b, ctx) => {
  const p = targetProblem(b.channel, b.target);
  if (p) ctx.addIssue(issue(p, 'target'));
});
export type SendLoginCodeBody = z.infer<typeof SendLoginCodeBody>;

/**
 * The same answer whether or not a user has that phone or email (the form cannot be used to find
 * out who has an account): when to allow the next send, and how long a code lives, in seconds.
 */
export const SendLoginCodeResult = z.object({ resend_after: z.number().int(), expires_in: z.number().int() });
export type SendLoginCodeResult = z.infer<typeof SendLoginCodeResult>;

/** POST /console/base/code_login: sign in with the code; answers the token pair a password sign-in does. */
export const CodeLoginBody = z.object({ ...base, code: z.string().max(20) }).superRefine((b, ctx) => {
  const p = targetProblem(b.channel, b.target);
  if (p) ctx.addIssue(issue(p, 'target'));
  const c = codeProblem(b.code);
  if (c) ctx.addIssue(issue(c, 'code'));
});
export type CodeLoginBody = z.infer<typeof CodeLoginBody>;
