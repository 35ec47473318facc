import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { DEFAULT_TENANT_ID, useStudio } from './harness';
import { startSecondServer, type SecondServer } from './second-server';
import { createUser } from '../../src/server/services/users';
import { readSettings } from '../../src/server/settings';
import { buildApp } from '../../src/server/app';

// Sign-in limits (README "Security"): an account at one address locks after 5 failures (1 min, then
// 2, 4, 8, at most 15 min, one failure at a time); an account locks after 20 failures from all
// addresses (each address counting with its first 5); an address after 50 failures on any accounts.

const h = useStudio();
const LOGIN = '/api/v1/console/base/login';
const PASSWORD = 'Passw0rd123';
const WRONG = 'Wrong-pass-1';

interface Attempt {
  status: number;
  body: { code: number | string; msg: string; data: any };
  retryAfter: number | undefined;
}

async function login(username: string, password: string, address: string, headers: Record<string, string> = {}): Promise<Attempt> {
  const raw = await h.studio.app.inject({
    method: 'POST',
    url: LOGIN,
    remoteAddress: address,
    headers,
    payload: { tenantId: DEFAULT_TENANT_ID, username, password },
  });
  const header = raw.headers['retry-after'];
  return { status: raw.statusCode, body: raw.json(), retryAfter: header === undefined ? undefined : Number(header) };
}

async function user(username: string, role: 'user' | 'tenant_admin' = 'user') {
  return createUser(h.studio.ctx.db, { tenantId: DEFAULT_TENANT_ID, username, password: PASSWORD, role });
}

/** The locks end by themselves: move them into the past rather than wait minutes. */
const endLocks = () => h.studio.ctx.db.execute(sql`update login_throttles set locked_until = now() - interval '1 second' where locked_until is not null`);

function expectRefused(a: Attempt) {
  expect(a.status, JSON.stringify(a.body)).toBe(429);
  expect(a.body.code).toBe('AUTH-1006');
  expect(Number.isInteger(a.retryAfter)).toBe(true);
  expect(a.retryAfter).toBeGreaterThanOrEqual(1);
  expect(a.body.data).toEqual({ retry_after: a.retryAfter });
  return a.retryAfter!;
}

function expectWrong(a: Attempt) {
  expect(a.status, JSON.stringify(a.body)).toBe(400);
  expect(a.body.code).toBe('AUTH-1002');
}

describe('sign-in limits', () => {
  it('after 5 wrong passwords the account is locked at that address: 160 tries, then the right password is refused (429 AUTH-1006, Retry-After)', async () => {
    await user('ll_finding');
    const codes: string[] = [];
    for (let i = 0; i < 160; i++) codes.push(String((await login('ll_finding', WRONG, '10.1.0.1')).body.code));
    expect(codes.slice(0, 5)).toEqual(Array(5).fill('AUTH-1002'));
    expect(new Set(codes.slice(5))).toEqual(new Set(['AUTH-1006']));
    const right = await login('ll_finding', PASSWORD, '10.1.0.1');
    expect(expectRefused(right)).toBeLessThanOrEqual(60);
    expect(right.body.msg).toMatch(/try again in \d+ s/i);
  });

  it('the lock ends by itself; then the right password signs in and the count starts again', async () => {
    await user('ll_expire');
    for (let i = 0; i < 5; i++) expectWrong(await login('ll_expire', WRONG, '10.1.0.2'));
    expectRefused(await login('ll_expire', PASSWORD, '10.1.0.2'));
    await endLocks();
    expect((await login('ll_expire', PASSWORD, '10.1.0.2')).status).toBe(200);
    // The success reset the count: 5 more failures before the next lock.
    for (let i = 0; i < 5; i++) expectWrong(await login('ll_expire', WRONG, '10.1.0.2'));
    expectRefused(await login('ll_expire', PASSWORD, '10.1.0.2'));
  });

  it('the lock grows 1, 2, 4, 8 minutes, capped at 15, each further failure locking again', async () => {
    await user('ll_grow');
    for (let i = 0; i < 5; i++) expectWrong(await login('ll_grow', WRONG, '10.1.0.3'));
    const seen = [expectRefused(await login('ll_grow', WRONG, '10.1.0.3'))];
    for (let i = 0; i < 5; i++) {
      await endLocks();
      expectWrong(await login('ll_grow', WRONG, '10.1.0.3'));
      seen.push(expectRefused(await login('ll_grow', PASSWORD, '10.1.0.3')));
    }
    const bounds = [60, 120, 240, 480, 900, 900];
    seen.forEach((s, i) => {
      expect(s).toBeLessThanOrEqual(bounds[i]);
      expect(s).toBeGreaterThan(bounds[i] - 30);
    });
  });

  it('failures at one address do not lock the account elsewhere; the account locks after 20 from several, each address counting with 5 at most', async () => {
    await user('ll_spread');
    for (let i = 0; i < 5; i++) expectWrong(await login('ll_spread', WRONG, '10.2.0.1'));
    expectRefused(await login('ll_spread', PASSWORD, '10.2.0.1'));
    // The user at another address signs in (and that resets the account's count).
    expect((await login('ll_spread', PASSWORD, '10.2.0.2')).status).toBe(200);
    // More failures from the locked address no longer count toward the account.
    await endLocks();
    expectWrong(await login('ll_spread', WRONG, '10.2.0.1'));
    for (const address of ['10.2.0.3', '10.2.0.4', '10.2.0.5']) for (let i = 0; i < 5; i++) expectWrong(await login('ll_spread', WRONG, address));
    for (let i = 0; i < 4; i++) expectWrong(await login('ll_spread', WRONG, '10.2.0.6'));
    expect((await login('ll_spread', PASSWORD, '10.2.0.7')).status).toBe(200);
    // 20 failures from four addresses: the account is locked at every address for a minute.
    for (const address of ['10.2.1.1', '10.2.1.2', '10.2.1.3', '10.2.1.4']) for (let i = 0; i < 5; i++) expectWrong(await login('ll_spread', WRONG, address));
    expect(expectRefused(await login('ll_spread', PASSWORD, '10.2.1.9'))).toBeLessThanOrEqual(60);
    await endLocks();
    expect((await login('ll_spread', PASSWORD, '10.2.1.9')).status).toBe(200);
  });

  it('an address failing on many accounts (unknown ones too) is limited after 50 failures; other addresses are not', async () => {
    await user('ll_victim');
    for (let i = 0; i < 50; i++) expectWrong(await login(`ll_nobody_${i}`, WRONG, '10.3.0.1'));
    expectRefused(await login('ll_victim', PASSWORD, '10.3.0.1'));
    expectRefused(await login('ll_nobody_x', WRONG, '10.3.0.1'));
    expect((await login('ll_victim', PASSWORD, '10.3.0.2')).status).toBe(200);
  });

  it('parallel wrong passwords get no more than the 5 tries', async () => {
    await user('ll_parallel');
    const all = await Promise.all(Array.from({ length: 40 }, () => login('ll_parallel', WRONG, '10.4.0.1')));
    const wrong = all.filter((a) => a.body.code === 'AUTH-1002').length;
    expect(wrong).toBeLessThanOrEqual(5);
    expect(all.filter((a) => a.body.code === 'AUTH-1006').length).toBe(40 - wrong);
    expectRefused(await login('ll_parallel', PASSWORD, '10.4.0.1'));
  });

  it('does not trust X-Forwarded-For by default: a spoofed header gives no new address', async () => {
    await user('ll_forwarded');
    for (let i = 0; i < 5; i++) expectWrong(await login('ll_forwarded', WRONG, '10.5.0.1', { 'x-forwarded-for': `198.51.100.${i}` }));
    expectRefused(await login('ll_forwarded', PASSWORD, '10.5.0.1', { 'x-forwarded-for': '198.51.100.99' }));
  });

  it('never limits successful sign-ins, and a success between failures resets the count', async () => {
    await user('ll_often');
    for (let i = 0; i < 30; i++) expect((await login('ll_often', PASSWORD, '10.6.0.1')).status).toBe(200);
    for (let round = 0; round < 4; round++) {
      for (let i = 0; i < 4; i++) expectWrong(await login('ll_often', WRONG, '10.6.0.1'));
      expect((await login('ll_often', PASSWORD, '10.6.0.1')).status).toBe(200);
    }
  });
});

describe('behind a proxy (WEFT_TRUST_PROXY)', () => {
  it("counts the address the trusted proxy forwards, and ignores the header from anyone else", async () => {
    await user('ll_proxied');
    const app = await buildApp({ ...h.studio.ctx, settings: { ...h.studio.ctx.settings, trustProxy: '10.8.0.1' } });
    try {
      const viaProxy = async (password: string, forwardedFor: string, socket = '10.8.0.1') => {
        const raw = await app.inject({
          method: 'POST',
          url: LOGIN,
          remoteAddress: socket,
          headers: { 'x-forwarded-for': forwardedFor },
          payload: { tenantId: DEFAULT_TENANT_ID, username: 'll_proxied', password },
        });
        return { status: raw.statusCode, code: raw.json().code };
      };
      for (let i = 0; i < 5; i++) expect(await viaProxy(WRONG, '203.0.113.1')).toEqual({ status: 400, code: 'AUTH-1002' });
      expect(await viaProxy(PASSWORD, '203.0.113.1')).toEqual({ status: 429, code: 'AUTH-1006' });
      // Another client behind the same proxy is another address.
      expect((await viaProxy(PASSWORD, '203.0.113.2')).status).toBe(200);
      // A client that is not the proxy cannot pick its address by the header.
      for (let i = 0; i < 5; i++) expect((await viaProxy(WRONG, `203.0.113.${10 + i}`, '10.8.0.2')).status).toBe(400);
      expect(await viaProxy(PASSWORD, '203.0.113.99', '10.8.0.2')).toEqual({ status: 429, code: 'AUTH-1006' });
    } finally {
      await app.close();
    }
  });
});

describe('password changes: the old-password check is limited the same way', () => {
  const change = (url: string, method: 'POST' | 'PUT', token: string, oldPassword: string) =>
    h.call(method, url, { token, body: { old_password: oldPassword, new_password: 'Another123', confirm_password: 'Another123' } });

  for (const [name, method, url, role] of [
    ['base/update_password', 'POST', '/api/v1/console/base/update_password', 'user'],
    ['users/update-password', 'POST', '/api/v1/console/users/update-password', 'user'],
    ['admin users/password', 'PUT', '/api/v1/admin/users/password', 'tenant_admin'],
  ] as const) {
    it(`${name}: after 5 wrong old passwords the right one is refused with 429 until the lock ends`, async () => {
      const username = `ll_pw_${name.replace(/\W/g, '_')}`;
      await user(username, role);
      const token = await h.login(username, PASSWORD);
      for (let i = 0; i < 5; i++) {
        const r = await change(url, method, token, WRONG);
        expect(r.status, JSON.stringify(r.body)).toBe(400);
        expect(r.body.code).toBe('AUTH-1005');
      }
      const refused = await change(url, method, token, PASSWORD);
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe('AUTH-1006');
      expect(Number(refused.raw.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      // The same account at the same address cannot sign in either; the password is unchanged.
      expectRefused(await login(username, PASSWORD, '127.0.0.1'));
      expect((await login(username, PASSWORD, '10.7.0.1')).status).toBe(200);
      await endLocks();
      expect((await change(url, method, token, PASSWORD)).status).toBe(200);
    });
  }
});

describe('another server on the same database', () => {
  let other: SecondServer;
  beforeAll(async () => {
    other = await startSecondServer(h);
  }, 90_000);
  afterAll(async () => {
    await other?.stop();
  });

  it('counts the failures of both servers together', async () => {
    expect(other.kind).toBe(process.env.DATABASE_URL ? 'process' : 'in-process');
    await user('ll_two');
    const body = (password: string) => ({ tenantId: DEFAULT_TENANT_ID, username: 'll_two', password });
    for (let i = 0; i < 3; i++) expectWrong(await login('ll_two', WRONG, '127.0.0.1'));
    for (let i = 0; i < 2; i++) expect((await other.call('POST', LOGIN, { body: body(WRONG) })).body.code).toBe('AUTH-1002');
    expectRefused(await login('ll_two', PASSWORD, '127.0.0.1'));
    const there = await other.call('POST', LOGIN, { body: body(PASSWORD) });
    expect(there.status).toBe(429);
    expect(there.body.code).toBe('AUTH-1006');
    expect(Number(there.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });
});

describe('settings', () => {
  it('reads the limits and the proxy trust from the environment, with safe defaults', () => {
    const d = readSettings({});
    expect(d).toMatchObject({ loginMaxFailures: 5, loginAccountMaxFailures: 20, loginAddressMaxFailures: 50, loginLockSeconds: 60, loginMaxLockSeconds: 900, trustProxy: false });
    const s = readSettings({
      WEFT_LOGIN_MAX_FAILURES: '3',
      WEFT_LOGIN_ACCOUNT_MAX_FAILURES: '10',
      WEFT_LOGIN_ADDRESS_MAX_FAILURES: '100',
      WEFT_LOGIN_LOCK_SECONDS: '30',
      WEFT_LOGIN_MAX_LOCK_SECONDS: '600',
    });
    expect(s).toMatchObject({ loginMaxFailures: 3, loginAccountMaxFailures: 10, loginAddressMaxFailures: 100, loginLockSeconds: 30, loginMaxLockSeconds: 600 });
    expect(readSettings({ WEFT_TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(readSettings({ WEFT_TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(readSettings({ WEFT_TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(readSettings({ WEFT_TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).trustProxy).toBe('10.0.0.0/8,127.0.0.1');
    for (const bad of [{ WEFT_LOGIN_MAX_FAILURES: '0' }, { WEFT_LOGIN_LOCK_SECONDS: 'soon' }, { WEFT_LOGIN_LOCK_SECONDS: '120', WEFT_LOGIN_MAX_LOCK_SECONDS: '60' }]) {
      expect(() => readSettings(bad), JSON.stringify(bad)).toThrow();
    }
  });
});
