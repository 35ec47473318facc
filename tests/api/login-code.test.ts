/**
 * Verification-code sign-in (issue 29, spec 5 login variants) against real local servers: an SMTP
 * server (smtp-server) receives the email codes; an HTTP SMS gateway on loopback receives the phone
 * codes through the outbound network policy. The code from the message signs in as a password does;
 * wrong, expired, reused and unknown-address codes fail with LOGIN-1005; sending is rate limited.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { DEFAULT_TENANT_ID, useStudio, type StudioSettings } from './harness';
import { loginCodes } from '../../src/server/db/schema';
import { createUser } from '../../src/server/services/users';
import { startMailbox, type Mailbox } from './smtp-fixture';

const sms: { phone: string; code: string; text: string }[] = [];
let mailbox: Mailbox;
let gateway: http.Server;
const settings: StudioSettings = { loginCodeMaxAttempts: '3', loginCodeTargetMaxSends: '3', smsSender: 'http', outboundAllow: '127.0.0.1' };

beforeAll(async () => {
  mailbox = await startMailbox();
  settings.smtpUrl = mailbox.url;
  gateway = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      sms.push(JSON.parse(body));
      res.end('{}');
    });
  });
  await new Promise<void>((r) => gateway.listen(0, '127.0.0.1', r));
  settings.smsHttpUrl = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}/send`;
});
const h = useStudio(settings);
afterAll(async () => {
  await mailbox?.close();
  await new Promise((r) => gateway?.close(() => r(null)));
});

const send = (channel: string, target: string, lang?: string) => h.call('POST', '/api/v1/console/base/send_code', { body: { tenantId: DEFAULT_TENANT_ID, channel, target, lang } });
const signIn = (channel: string, target: string, code: string) => h.call('POST', '/api/v1/console/base/code_login', { body: { tenantId: DEFAULT_TENANT_ID, channel, target, code } });
const addUser = (username: string, email: string, phone = '') =>
  createUser(h.studio.ctx.db, { tenantId: DEFAULT_TENANT_ID, username, password: 'Secret1234', role: 'user', email, phone });
/** The code in the newest mail to `to` (the SMTP server has it once the send call answered). */
const mailedCode = (to: string) => mailbox.codeFor(to);
/** Lets the next code to the target go out at once (the resend interval is a minute). */
const backdate = (target: string) => h.studio.ctx.db.update(loginCodes).set({ createdAt: sql`now() - interval '2 minutes'` }).where(eq(loginCodes.target, target));

describe('verification-code sign-in', () => {
  it('offers both channels on /config.json', async () => {
    const r = await h.call('GET', '/config.json');
    expect(r.body).toMatchObject({ codeLogin: ['email', 'sms'] });
  });

  it('mails a code that signs in once, as a password sign-in does', async () => {
    const u = await addUser('mia', 'Mia@Example.com');
    const r = await send('email', ' mia@example.COM ', 'en');
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ resend_after: 60, expires_in: 300 });
    const code = mailedCode('mia@example.com')!;
    expect(code).toMatch(/^\d{6}$/);
    expect(mailbox.mails.at(-1)!.text).toContain('valid for 5 minutes');
    // Never stored as it is.
    const [row] = await h.studio.ctx.db.select().from(loginCodes).where(eq(loginCodes.target, 'mia@example.com'));
    expect(row.codeHash).not.toContain(code);
    const ok = await signIn('email', 'mia@example.com', code);
    expect(ok.status).toBe(200);
    const me = await h.call('GET', '/api/v1/console/base/userinfo', { token: ok.body.data.access_token });
    expect(me.body.data).toMatchObject({ id: u.id, username: 'mia' });
    const refreshed = await h.call('POST', '/api/v1/console/base/refresh', { body: { refresh_token: ok.body.data.refresh_token } });
    expect(refreshed.status).toBe(200);
    const again = await signIn('email', 'mia@example.com', code);
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('LOGIN-1005');
  });

  it('refuses a wrong code, and after the allowed tries the right one too', async () => {
    await addUser('noah', 'noah@example.com');
    await send('email', 'noah@example.com');
    const code = mailedCode('noah@example.com')!;
    expect(mailbox.mails.at(-1)!.text).toContain('5 分钟内有效');
    const wrong = code === '000000' ? '000001' : '000000';
    for (let i = 0; i < 3; i++) {
      const r = await signIn('email', 'noah@example.com', wrong);
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('LOGIN-1005');
    }
    expect((await signIn('email', 'noah@example.com', code)).body.code).toBe('LOGIN-1005');
  });

  it('refuses an expired code', async () => {
    await addUser('olga', 'olga@example.com');
    await send('email', 'olga@example.com');
    await h.studio.ctx.db.update(loginCodes).set({ expiresAt: sql`now() - interval '1 second'` }).where(eq(loginCodes.target, 'olga@example.com'));
    const r = await signIn('email', 'olga@example.com', mailedCode('olga@example.com')!);
    expect(r.body.code).toBe('LOGIN-1005');
  });

  it('answers an unknown address as a known one but sends nothing, and no code signs in there', async () => {
    const before = mailbox.mails.length;
    const r = await send('email', 'ghost@example.com');
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ resend_after: 60, expires_in: 300 });
    expect(mailbox.mails.length).toBe(before);
    expect((await signIn('email', 'ghost@example.com', '123456')).body.code).toBe('LOGIN-1005');
  });

  it('limits sending: a wait between codes to one address, then locks after a few', async () => {
    await addUser('pia', 'pia@example.com');
    expect((await send('email', 'pia@example.com')).status).toBe(200);
    const soon = await send('email', 'pia@example.com');
    expect(soon.status).toBe(429);
    expect(soon.body.code).toBe('RATE-1000');
    expect(soon.raw.headers['retry-after']).toBeDefined();
    for (let i = 0; i < 2; i++) {
      await backdate('pia@example.com');
      expect((await send('email', 'pia@example.com')).status).toBe(200);
    }
    await backdate('pia@example.com');
    const locked = await send('email', 'pia@example.com');
    expect(locked.status).toBe(429);
    expect(locked.body.code).toBe('RATE-1000');
    expect(locked.body.data.retry_after).toBeGreaterThan(0);
  });

  it('texts a code through the SMS gateway; the phone matches with or without +86', async () => {
    const u = await addUser('qiu', '', '138 0013 8000');
    const r = await send('sms', '+8613800138000', 'zh');
    expect(r.status).toBe(200);
    const msg = sms.at(-1)!;
    expect(msg.phone).toBe('13800138000');
    expect(msg.text).toContain(msg.code);
    const ok = await signIn('sms', '13800138000', msg.code);
    expect(ok.status).toBe(200);
    const me = await h.call('GET', '/api/v1/console/base/userinfo', { token: ok.body.data.access_token });
    expect(me.body.data.id).toBe(u.id);
  });

  it('says when the mail cannot be sent (LOGIN-1007), and that code never signs in', async () => {
    await addUser('rob', 'bounce@example.com');
    const r = await send('email', 'bounce@example.com');
    expect(r.status).toBe(502);
    expect(r.body.code).toBe('LOGIN-1007');
    const [row] = await h.studio.ctx.db.select().from(loginCodes).where(eq(loginCodes.target, 'bounce@example.com'));
    expect(row.usedAt).not.toBeNull();
  });

  it('checks phone, email and code by the spec-5 rules, with their own codes, changing nothing', async () => {
    const before = (await h.studio.ctx.db.select().from(loginCodes)).length;
    const cases: [string, unknown][] = [
      ['LOGIN-1000', send('sms', ' ')],
      ['LOGIN-1001', send('sms', '12345')],
      ['LOGIN-1002', send('email', '')],
      ['LOGIN-1003', send('email', 'not-an-email')],
      ['LOGIN-1004', signIn('email', 'mia@example.com', '')],
      ['LOGIN-1005', signIn('email', 'mia@example.com', '12ab')],
    ];
    for (const [code, p] of cases) {
      const r = (await p) as Awaited<ReturnType<typeof send>>;
      expect(r.status).toBe(400);
      expect(r.body.code).toBe(code);
    }
    expect((await h.studio.ctx.db.select().from(loginCodes)).length).toBe(before);
  });
});
