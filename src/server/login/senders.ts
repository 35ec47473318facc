import type { Transporter } from 'nodemailer';
import type { Settings } from '../settings';
import type { OutboundPolicy } from '../security/outbound-policy';
import { createPolicyFetch } from '../http/policy-fetch';
import type { LoginCodeChannel } from '../../../schemas/login-code';
import zhAuth from '../../i18n/locales/zh/auth';
import enAuth from '../../i18n/locales/en/auth';

/** A sign-in code to deliver, with the words in the language the login page was in. */
export interface CodeMessage {
  to: string;
  code: string;
  subject: string;
  text: string;
}

/**
 * Delivers sign-in codes by one channel. Pluggable: the SMS gateway differs per operator, so the
 * built-in `log` and `http` senders stand in for any, and a deployment may pass its own
 * (`createLoginCodeService(ctx, { sms })`).
 * @example const sms: CodeSender = { async send(m) { await myGateway.post(m.to, m.text); } };
 */
export interface CodeSender {
  send(message: CodeMessage): Promise<void>;
}

export type CodeSenders = Partial<Record<LoginCodeChannel, CodeSender>>;

/** The message in zh or en (the login page's language; Chinese is the fallback, as in the client). */
export function codeMessage(lang: string | undefined, to: string, code: string, minutes: number): CodeMessage {
  const m = (lang === 'en' ? enAuth : zhAuth).codeMessage;
  const fill = (s: string) => s.replace('{{code}}', code).replace('{{minutes}}', String(minutes));
  return { to, code, subject: m.subject, text: fill(m.text) };
}

/** Mail through the operator's SMTP server (WEFT_SMTP_URL); the operator's server, not a user's destination. */
function smtpSender(url: string, from: string): CodeSender {
  // nodemailer (some 40 modules) loads with the first mail, not at the server's start (issue 32).
  let transport: Promise<Transporter> | undefined;
  return {
    async send(m) {
      transport ??= import('nodemailer').then((n) => n.default.createTransport(url));
      await (await transport).sendMail({ from, to: m.to, subject: m.subject, text: m.text });
    },
  };
}

/**
 * A JSON POST `{ phone, code, text }` to the operator's SMS gateway (WEFT_SMS_HTTP_URL), through the
 * outbound network policy like every other connection the server makes (a gateway on a private host
 * needs WEFT_OUTBOUND_ALLOW). Any answer but 2xx is a failure.
 */
function httpSmsSender(url: string, token: string | undefined, policy: OutboundPolicy): CodeSender {
  const fetch = createPolicyFetch(policy, 'identity', { connectTimeoutMs: 10_000 });
  return {
    async send(m) {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (token) headers.authorization = `Bearer ${token}`;
      const r = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ phone: m.to, code: m.code, text: m.text }), signal: AbortSignal.timeout(15_000) });
      await r.arrayBuffer().catch(() => undefined);
      if (!r.ok) throw new Error(`the SMS gateway answered ${r.status}`);
    },
  };
}

/** Writes the code to the server's log: for trying the studio out without a gateway (never for real users). */
function logSmsSender(log: (detail: unknown, msg: string) => void): CodeSender {
  return {
    async send(m) {
      log({ phone: m.to, code: m.code }, 'sign-in code (WEFT_SMS_SENDER=log)');
    },
  };
}

/** The senders the settings configure; a channel without one is not offered (config.json) and refused (LOGIN-1006). */
export function sendersFromSettings(settings: Settings, policy: OutboundPolicy, log: (detail: unknown, msg: string) => void): CodeSenders {
  const out: CodeSenders = {};
  if (settings.smtpUrl) out.email = smtpSender(settings.smtpUrl, settings.smtpFrom);
  if (settings.smsSender === 'log') out.sms = logSmsSender(log);
  if (settings.smsSender === 'http' && settings.smsHttpUrl) out.sms = httpSmsSender(settings.smsHttpUrl, settings.smsHttpToken, policy);
  return out;
}

/** The channels a server offers, from its settings alone (for /config.json). */
export function codeChannels(settings: Settings): LoginCodeChannel[] {
  const out: LoginCodeChannel[] = [];
  if (settings.smtpUrl) out.push('email');
  if (settings.smsSender !== 'off') out.push('sms');
  return out;
}
