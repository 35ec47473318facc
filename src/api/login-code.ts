/**
 * Verification-code sign-in (spec 5 login variants): send a code by email or SMS, then sign in with
 * it. Both calls need no token and answer silently: the login form shows the failure itself.
 */
import { call, type Endpoint, type RequestOptions } from './request';
import type { LoginCodeChannel } from '../../schemas/login-code-rules';

const tokenPair = async () => (await import('../../schemas/auth')).TokenPair;
const sendResult = async () => (await import('../../schemas/login-code')).SendLoginCodeResult;

type Opts = Omit<RequestOptions, 'responseType' | 'schema'>;

export const loginCodeEndpoints = {
  send: { method: 'POST', url: '/api/v1/console/base/send_code', name: 'base.sendCode' },
  login: { method: 'POST', url: '/api/v1/console/base/code_login', name: 'base.codeLogin' },
} as const satisfies Record<string, Endpoint>;

export type SendLoginCodeInput = {
  tenantId: string;
  channel: LoginCodeChannel;
  /** The phone number or the email. */
  target: string;
  /** The page's language: the message's. */
  lang?: 'zh' | 'en';
};

export type CodeLoginInput = {
  tenantId: string;
  channel: LoginCodeChannel;
  target: string;
  code: string;
};

/** Sends a code; answers in how many seconds another may be sent, and how long the code lives. */
export const sendLoginCode = (body: SendLoginCodeInput, opts?: Opts) =>
  call(sendResult, loginCodeEndpoints.send, body, { auth: false, workspaceId: null, reaction: 'silent', ...opts });

/** Exchanges the code for a token pair. Use `signInWithCode` from ./auth, which also stores the session. */
export const codeLogin = (body: CodeLoginInput, opts?: Opts) =>
  call(tokenPair, loginCodeEndpoints.login, body, { auth: false, workspaceId: null, reaction: 'silent', ...opts });
