import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, DEFAULT_TENANT_ID, useStudio } from './harness';
import { startSecondServer, type SecondServer } from './second-server';
import { createUser } from '../../src/server/services/users';
import { forgetCallers } from '../../src/server/auth';
import { countStatements } from './statements-kit';

const h = useStudio();
const PASSWORD = 'Passw0rd123';
const USERNAME = 's_user';

interface Pair {
  access_token: string;
  refresh_token: string;
}

async function signIn(username = USERNAME, password = PASSWORD): Promise<Pair> {
  const r = await h.call('POST', '/api/v1/console/base/login', { body: { tenantId: DEFAULT_TENANT_ID, username, password } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data;
}

const refresh = (refreshToken: string) => h.call('POST', '/api/v1/console/base/refresh', { body: { refresh_token: refreshToken } });
const me = (token: string) => h.call('GET', '/api/v1/console/base/userinfo', { token });

function expectCode(r: { status: number; body: { code: unknown } }, status: number, code: string) {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(r.body.code).toBe(code);
}

beforeAll(async () => {
  await createUser(h.studio.ctx.db, { tenantId: DEFAULT_TENANT_ID, username: USERNAME, password: PASSWORD, role: 'user' });
});

describe('refresh-token reuse revokes the whole family', () => {
  it('R1 → R2; R1 again is refused, and then R2 and its access token are refused too', async () => {
    const first = await signIn();
    const second = await refresh(first.refresh_token);
    expect(second.status).toBe(200);
    const r2: Pair = second.body.data;
    expect((await me(r2.access_token)).status).toBe(200);

    expectCode(await refresh(first.refresh_token), 401, 'AUTH-1004');
    // The family is gone: the token the first use issued, and the access tokens of the family.
    expectCode(await refresh(r2.refresh_token), 401, 'AUTH-1004');
    expectCode(await me(r2.access_token), 401, 'AUTH-1001');
    expectCode(await me(first.access_token), 401, 'AUTH-1001');
  });

  it('revokes every later token of the family (R1 → R2 → R3, reuse R1: R3 refused); other sessions live on', async () => {
    const other = await signIn();
    const first = await signIn();
    const r2: Pair = (await refresh(first.refresh_token)).body.data;
    const r3res = await refresh(r2.refresh_token);
    expect(r3res.status).toBe(200);
    const r3: Pair = r3res.body.data;
    expectCode(await refresh(first.refresh_token), 401, 'AUTH-1004');
    expectCode(await refresh(r3.refresh_token), 401, 'AUTH-1004');
    expectCode(await me(r3.access_token), 401, 'AUTH-1001');
    // A session from another sign-in of the same user is not part of that family.
    expect((await me(other.access_token)).status).toBe(200);
    expect((await refresh(other.refresh_token)).status).toBe(200);
  });

  it('refuses a reuse of a middle token of the family as well (R2 reused after R2 → R3)', async () => {
    const first = await signIn();
    const r2: Pair = (await refresh(first.refresh_token)).body.data;
    const r3: Pair = (await refresh(r2.refresh_token)).body.data;
    expectCode(await refresh(r2.refresh_token), 401, 'AUTH-1004');
    expectCode(await refresh(r3.refresh_token), 401, 'AUTH-1004');
    expectCode(await me(r3.access_token), 401, 'AUTH-1001');
  });
});

describe('logout ends the session at once', () => {
  it('the access token stops working right after logout; another session of the user goes on', async () => {
    const other = await signIn();
    const s = await signIn();
    expect((await me(s.access_token)).status).toBe(200);
    const out = await h.call('POST', '/api/v1/console/base/logout', { token: s.access_token, body: { refresh_token: s.refresh_token } });
    expect(out.body).toEqual({ code: 0, msg: 'success', data: null });
    expectCode(await me(s.access_token), 401, 'AUTH-1001');
    expectCode(await refresh(s.refresh_token), 401, 'AUTH-1004');
    expect((await me(other.access_token)).status).toBe(200);
  });

  it('ends the session with the access token alone (no refresh token in the body)', async () => {
    const s = await signIn();
    expect((await h.call('POST', '/api/v1/console/base/logout', { token: s.access_token })).status).toBe(200);
    expectCode(await me(s.access_token), 401, 'AUTH-1001');
    expectCode(await refresh(s.refresh_token), 401, 'AUTH-1004');
  });

  it('ends the session with the refresh token alone (an expired access token cannot keep it alive)', async () => {
    const s = await signIn();
    const out = await h.call('POST', '/api/v1/console/base/logout', { body: { refresh_token: s.refresh_token } });
    expect(out.body).toEqual({ code: 0, msg: 'success', data: null });
    expectCode(await refresh(s.refresh_token), 401, 'AUTH-1004');
    expectCode(await me(s.access_token), 401, 'AUTH-1001');
    // Without either token, logout is refused.
    expectCode(await h.call('POST', '/api/v1/console/base/logout', { body: {} }), 401, 'AUTH-1001');
    expectCode(await h.call('POST', '/api/v1/console/base/logout', { body: { refresh_token: 'not-a-token' } }), 401, 'AUTH-1001');
  });

  it("does not let one user's access token end another user's session by its refresh token", async () => {
    const victim = await signIn();
    const admin = await signIn(ADMIN.username, ADMIN.password);
    expect((await h.call('POST', '/api/v1/console/base/logout', { token: admin.access_token, body: { refresh_token: victim.refresh_token } })).status).toBe(200);
    expect((await me(victim.access_token)).status).toBe(200);
    expect((await refresh(victim.refresh_token)).status).toBe(200);
  });

  it('a password change still ends every session of the user (token version)', async () => {
    const a = await signIn();
    const b = await signIn();
    const changed = await h.call('POST', '/api/v1/console/base/update_password', {
      token: a.access_token,
      body: { old_password: PASSWORD, new_password: 'Changed123', confirm_password: 'Changed123' },
    });
    expect(changed.status).toBe(200);
    expectCode(await me(a.access_token), 401, 'AUTH-1001');
    expectCode(await me(b.access_token), 401, 'AUTH-1001');
    expectCode(await refresh(b.refresh_token), 401, 'AUTH-1004');
    const back = await signIn(USERNAME, 'Changed123');
    await h.call('POST', '/api/v1/console/base/update_password', {
      token: back.access_token,
      body: { old_password: 'Changed123', new_password: PASSWORD, confirm_password: PASSWORD },
    });
  });
});

describe('another server on the same database', () => {
  let other: SecondServer;
  beforeAll(async () => {
    other = await startSecondServer(h);
  }, 90_000);
  afterAll(async () => {
    await other?.stop();
  });

  it('sees a logout within a second, and a family revoked by reuse at once', async () => {
    expect(other.kind).toBe(process.env.DATABASE_URL ? 'process' : 'in-process');
    const s = await signIn();
    expect((await other.call('GET', '/api/v1/console/base/userinfo', { token: s.access_token })).status).toBe(200);
    expect((await h.call('POST', '/api/v1/console/base/logout', { token: s.access_token })).status).toBe(200);
    // The other server keeps a verified caller for at most a second.
    await new Promise((r) => setTimeout(r, 1_100));
    const after = await other.call('GET', '/api/v1/console/base/userinfo', { token: s.access_token });
    expect(after.status).toBe(401);
    expect(after.body.code).toBe('AUTH-1001');

    // R1 used on this server, reused on the other: the family is refused on both.
    const t = await signIn();
    const r2: Pair = (await refresh(t.refresh_token)).body.data;
    const reuse = await other.call('POST', '/api/v1/console/base/refresh', { body: { refresh_token: t.refresh_token } });
    expect(reuse.status).toBe(401);
    expect(reuse.body.code).toBe('AUTH-1004');
    expectCode(await refresh(r2.refresh_token), 401, 'AUTH-1004');
  });
});

describe('the caller check of a burst of requests', () => {
  it('requests of one session arriving together share one read of the user; a logout in between is still seen', async () => {
    const { access_token: token } = await signIn();
    forgetCallers();
    const seen = await countStatements(h, async () => {
      const answers = await Promise.all(Array.from({ length: 8 }, () => me(token)));
      expect(answers.map((r) => r.status)).toEqual(Array(8).fill(200));
    });
    expect(seen.texts.filter((t) => /from "users".*left join "auth_sessions"/i.test(t))).toHaveLength(1);
    // A session ended while a read is on its way is not answered from that read.
    const pending = Promise.all(Array.from({ length: 4 }, () => me(token)));
    await h.call('POST', '/api/v1/console/base/logout', { token, body: {} });
    await pending;
    expectCode(await me(token), 401, 'AUTH-1001');
  });
});
