import net from 'node:net';
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { LOOPBACK_FAKES, useStudio, type CallOptions } from './harness';
import { postgresServer } from './postgres-server';
import { expectCode, expectOk, type Fixture, MISSING, setUpWorkspaces, type Who } from './workspace-fixture';
import { externalDatabases } from '../../src/server/db/schema';
import { decryptSecret } from '../../src/server/security/secrets';
import { settleChecks } from '../../src/server/services/databases';
import { checkConnection } from '../../src/server/services/db-drivers';

/**
 * The connection checks connect for real: to a PostgreSQL server (the one of DATABASE_URL, or another:
 * tests/api/postgres-server.ts; scripts/with-postgres.mjs's servers ask TCP clients for a password), and to
 * closed local ports for the other types, which proves their drivers are loaded and used. Both are
 * on 127.0.0.1, which this file's outbound allow-list opens (the policy's own tests are in
 * security-outbound.test.ts).
 */

const h = useStudio(LOOPBACK_FAKES);
/** What the outbound policy logged: why an allowed destination could not be reached. */
const logged: string[] = [];
const URL = '/api/v1/console/databases';
let f: Fixture;

/** The target PostgreSQL server. */
const target = { host: '127.0.0.1', port: 0, superUser: '', superPassword: '' };
/** A role made for these tests, with a password. */
const role = { name: `weft_check_${randomBytes(4).toString('hex')}`, password: `Pw-${randomBytes(8).toString('hex')}` };
/** Whether the server really checks passwords over TCP (a trust-only server cannot fail a wrong one). */
let authEnforced = false;
let stopPostgres: (() => Promise<void>) | undefined;
let closedPort = 0;

const adminClient = async () => {
  const c = new pg.Client({ host: target.host, port: target.port, user: target.superUser, password: target.superPassword, database: 'postgres' });
  await c.connect();
  return c;
};

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

beforeAll(async () => {
  h.studio.ctx.outbound.setLogger((d) => logged.push(d.error));
  const server = await postgresServer();
  stopPostgres = server.stop;
  const u = new globalThis.URL(server.url);
  Object.assign(target, {
    host: u.hostname,
    port: Number(u.port || 5432),
    superUser: decodeURIComponent(u.username),
    superPassword: decodeURIComponent(u.password),
  });
  const c = await adminClient();
  await c.query(`CREATE ROLE ${role.name} LOGIN PASSWORD '${role.password}'`);
  await c.end();
  const wrong = new pg.Client({ host: target.host, port: target.port, user: role.name, password: 'definitely-wrong', database: 'postgres' });
  authEnforced = await wrong.connect().then(
    async () => {
      await wrong.end();
      return false;
    },
    () => true,
  );
  closedPort = await freePort();
  f = await setUpWorkspaces(h, 'db');
}, 120_000);

afterAll(async () => {
  await settleChecks();
  try {
    const c = await adminClient();
    await c.query(`DROP ROLE IF EXISTS ${role.name}`);
    await c.end();
  } finally {
    await stopPostgres?.();
  }
}, 60_000);

function call(method: string, url: string, who: Who, opts: Omit<CallOptions, 'token'> & { ws?: string | null } = {}) {
  const { ws, ...rest } = opts;
  return h.call(method, url, { ...rest, token: f.u[who].token, workspaceId: ws === null ? undefined : (ws ?? f.wsA) });
}

interface Db {
  id: string;
  workspace_id: string;
  name: string;
  type: string;
  host: string;
  port: number;
  account: string;
  password: string;
  database: string;
  sid: string;
  remark: string;
  query_limit: number;
  status: string;
  status_code: string;
  status_message: string;
  checked_at: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
}

/** Settings of the real PostgreSQL server with the test role. */
const pgSettings = (over: Record<string, unknown> = {}) => ({
  type: 'postgresql',
  host: target.host,
  port: target.port,
  account: role.name,
  password: role.password,
  database: 'postgres',
  ...over,
});

async function create(body: Record<string, unknown>, who: Who = 'owner', ws?: string): Promise<Db> {
  return expectOk(await call('POST', URL, who, { body, ws }));
}
const read = async (id: string, who: Who = 'owner', ws?: string): Promise<Db> => expectOk(await call('GET', `${URL}/${id}`, who, { ws }));
const revealed = async (id: string) => expectOk(await call('GET', `${URL}/${id}/password`, 'owner')).password as string;
const rawRow = async (id: string) => (await h.studio.ctx.db.select().from(externalDatabases).where(eq(externalDatabases.id, id)))[0];
const names = async (who: Who, query: Record<string, string | number> = {}, ws?: string) =>
  (expectOk(await call('GET', URL, who, { query, ws })).items as Db[]).map((d) => d.name);
const checkBody = async (body: Record<string, unknown>, who: Who = 'owner') => expectOk(await call('POST', `${URL}/check-connection`, who, { body }));

describe('POST /console/databases/check-connection (unsaved settings)', () => {
  it('connects to the real PostgreSQL server and runs a query', async () => {
    const r = await checkBody({ ...pgSettings(), name: 'form name', remark: 'ignored', query_limit: 10 });
    expect(r).toMatchObject({ status: 'success', code: 'ok', detail: '' });
    expect(r.message).toContain(`${target.host}:${target.port}`);
    expect(r.elapsed_ms).toBeGreaterThanOrEqual(0);
    // The admin may check too; the database name may be left out (PostgreSQL then uses 'postgres').
    expect(await checkBody({ ...pgSettings(), database: undefined }, 'admin')).toMatchObject({ status: 'success', code: 'ok' });
  });

  it('fails clearly with a wrong password', async (t) => {
    if (!authEnforced) t.skip();
    const r = await checkBody(pgSettings({ password: 'wrong-password' }));
    expect(r).toMatchObject({ status: 'failed', code: 'auth_failed' });
    expect(r.message).toBe(`Authentication failed for user '${role.name}': check the account and the password`);
    expect(r.detail).toMatch(/password authentication failed/);
    const empty = await checkBody(pgSettings({ password: '' }));
    expect(empty).toMatchObject({ status: 'failed', code: 'auth_failed' });
  });

  it('fails clearly for an unknown role, a missing database, a closed port and an unknown host', async () => {
    expect(await checkBody(pgSettings({ account: 'no_such_role_here' }))).toMatchObject({ status: 'failed', code: 'auth_failed' });
    const missing = await checkBody(pgSettings({ database: 'no_such_database' }));
    expect(missing).toMatchObject({ status: 'failed', code: 'database_missing', message: "The database 'no_such_database' does not exist" });
    const closed = await checkBody(pgSettings({ port: closedPort }));
    expect(closed).toMatchObject({ status: 'failed', code: 'unreachable', detail: '', message: `Could not connect to a PostgreSQL server at 127.0.0.1:${closedPort}` });
    // The socket error stays in the server's log.
    expect(logged.at(-1)).toContain('ECONNREFUSED');
    const unknown = await checkBody(pgSettings({ host: 'no-such-host.invalid' }));
    expect(unknown.status).toBe('failed');
    expect(['host_not_found', 'unreachable']).toContain(unknown.code);
  });

  it.each([
    ['mysql', 'MySQL', {}, /mysql: .*ECONNREFUSED/],
    ['sqlserver', 'SQL Server', {}, /sqlserver: .*Failed to connect to 127\.0\.0\.1/],
    ['oracle', 'Oracle', { sid: 'ORCL', database: '' }, /oracle: .*NJS-503/],
    ['clickhouse', 'ClickHouse', {}, /clickhouse: .*ECONNREFUSED/],
    ['dm', 'Dameng', {}, /dm: .*\[6001\]/],
  ])('wires the %s driver: a closed port gives the one cannot-connect message', async (type, label, extra, detail) => {
    const r = await checkBody({ type, host: '127.0.0.1', port: closedPort, account: 'someone', password: 'x', ...extra });
    expect(r).toMatchObject({ status: 'failed', code: 'unreachable', detail: '', message: `Could not connect to a ${label} server at 127.0.0.1:${closedPort}` });
    // The driver's own words, in the server's log, show that this type's driver made the attempt.
    expect(logged.at(-1)).toMatch(detail);
  });

  it('gives up after the connect timeout when the server never answers', async () => {
    const silent = net.createServer(() => {});
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
    const port = (silent.address() as net.AddressInfo).port;
    try {
      for (const type of ['postgresql', 'mysql'] as const) {
        const started = Date.now();
        const r = await checkConnection({ type, host: '127.0.0.1', port, account: 'a', password: 'b', database: '', sid: '' }, { timeoutMs: 400, policy: h.studio.ctx.outbound });
        // The same answer as a closed port: a silent port is not told apart.
        expect(r).toMatchObject({ status: 'failed', code: 'unreachable', detail: '', message: `Could not connect to a ${type === 'mysql' ? 'MySQL' : 'PostgreSQL'} server at 127.0.0.1:${port}` });
        expect(Date.now() - started).toBeLessThan(3000);
      }
    } finally {
      silent.close();
    }
  });

  it("uses a saved database's password when given its id and no (or the masked) password", async () => {
    const saved = await create({ name: 'Check Saved Pw', ...pgSettings() });
    for (const password of [undefined, '******']) {
      const r = await checkBody({ id: saved.id, ...pgSettings({ password }) });
      expect(r).toMatchObject({ status: 'success', code: 'ok' });
    }
    // Another workspace's id is not usable.
    const inB = await create({ name: 'Check Saved B', ...pgSettings() }, 'owner', f.wsB);
    expectCode(await call('POST', `${URL}/check-connection`, 'owner', { body: { id: inB.id, ...pgSettings({ password: undefined }) } }), 400, 'VALIDATION-1000');
  });

  it('refuses bad settings with VALIDATION-1000', async () => {
    for (const over of [
      { type: 'mongodb' },
      { host: 'http://db.example.com' },
      { host: 'db.example.com:5432' },
      { host: 'db.example.com/path' },
      { host: '999.1.1.1' },
      { host: '' },
      { port: 0 },
      { port: 65536 },
      { port: '5432' },
      { account: '' },
      { sid: 'ORCL' },
      { database: "x'; drop table y; --" },
      { unknown: 1 },
    ]) {
      expectCode(await call('POST', `${URL}/check-connection`, 'owner', { body: pgSettings(over) }), 400, 'VALIDATION-1000');
    }
    expectCode(
      await call('POST', `${URL}/check-connection`, 'owner', { body: { type: 'oracle', host: '127.0.0.1', port: 1521, account: 'a' } }),
      400,
      'VALIDATION-1000',
    );
  });

  it('accepts IP addresses and host names (the policy decides where they may lead)', async () => {
    for (const host of ['127.0.0.1', 'db-1.internal.example', 'my_db']) {
      const r = await checkBody(pgSettings({ host, port: closedPort }));
      expect(r.status).toBe('failed');
    }
    // ::1 is loopback too, but this file's allow-list names 127.0.0.1 only.
    expectCode(await call('POST', `${URL}/check-connection`, 'owner', { body: pgSettings({ host: '::1', port: closedPort }) }), 400, 'NETWORK-1000');
  });

  it('is refused to an ordinary member (403), outside the workspace (VALIDATION-1000) and without the header (VALIDATION-1008)', async () => {
    expectCode(await call('POST', `${URL}/check-connection`, 'member', { body: pgSettings() }), 403, 'PERMISSION-1000');
    expectCode(await call('POST', `${URL}/check-connection`, 'outsider', { body: pgSettings() }), 400, 'VALIDATION-1000');
    expectCode(await call('POST', `${URL}/check-connection`, 'foreign', { body: pgSettings() }), 400, 'VALIDATION-1000');
    expectCode(await call('POST', `${URL}/check-connection`, 'owner', { body: pgSettings(), ws: null }), 400, 'VALIDATION-1008');
  });
});

describe('POST /console/databases (create)', () => {
  it("saves the database as 'detecting', then records the background check", async () => {
    const d = await create({ name: '  Real PG  ', ...pgSettings(), remark: 'the test server', query_limit: 500 });
    expect(d).toMatchObject({
      name: 'Real PG',
      type: 'postgresql',
      host: target.host,
      port: target.port,
      account: role.name,
      password: '******',
      database: 'postgres',
      sid: '',
      remark: 'the test server',
      query_limit: 500,
      status: 'detecting',
      status_code: '',
      status_message: '',
      checked_at: null,
      workspace_id: f.wsA,
      created_by: f.u.owner.id,
    });
    await settleChecks();
    const after = await read(d.id, 'member');
    expect(after).toMatchObject({ status: 'success', status_code: 'ok', password: '******' });
    expect(after.status_message).toContain('Connected');
    expect(after.checked_at).not.toBeNull();
  });

  it('records a failed background check with its reason', async (t) => {
    if (!authEnforced) t.skip();
    const d = await create({ name: 'Wrong Pw', ...pgSettings({ password: 'nope' }) }, 'admin');
    await settleChecks();
    expect(await read(d.id)).toMatchObject({ status: 'failed', status_code: 'auth_failed', status_message: expect.stringContaining('Authentication failed') });
  });

  it('stores the password only encrypted and reveals it only through its endpoint', async () => {
    const d = await create({ name: 'Secret Pw', ...pgSettings() });
    const row = await rawRow(d.id);
    expect(row.passwordEnc.startsWith('v1:')).toBe(true);
    expect(row.passwordEnc).not.toContain(role.password);
    expect(JSON.stringify(row)).not.toContain(role.password);
    expect(decryptSecret(h.studio.ctx.secretKey, row.passwordEnc, `database.password:${d.id}`)).toBe(role.password);
    const list = expectOk(await call('GET', URL, 'owner'));
    expect(JSON.stringify(list)).not.toContain(role.password);
    expect(JSON.stringify(await read(d.id))).not.toContain(role.password);
    expect(await revealed(d.id)).toBe(role.password);
  });

  it('fills the default port of the type and query limit 100; an empty password shows as empty', async () => {
    const expected = { mysql: 3306, oracle: 1521, sqlserver: 1433, postgresql: 5432, clickhouse: 8123, dm: 5236 } as const;
    for (const [type, port] of Object.entries(expected)) {
      const body = { name: `Default ${type}`, type, host: '127.0.0.1', account: 'a', ...(type === 'oracle' ? { sid: 'ORCL' } : {}) };
      const d = await create(body);
      expect(d).toMatchObject({ type, port, query_limit: 100, password: '', sid: type === 'oracle' ? 'ORCL' : '' });
      expect((await rawRow(d.id)).passwordEnc.startsWith('v1:')).toBe(true);
    }
    await settleChecks();
  });

  it('refuses an id (VALIDATION-1002), bad input (VALIDATION-1000) and a taken name (VALIDATION-1001); creates nothing', async () => {
    expectCode(await call('POST', URL, 'owner', { body: { id: randomUUID(), name: 'Bad Id', ...pgSettings() } }), 400, 'VALIDATION-1002');
    for (const over of [
      { name: '' },
      { name: 'x'.repeat(51) },
      { type: 'sqlite' },
      { host: 'https://db' },
      { port: -1 },
      { query_limit: 0 },
      { query_limit: 1001 },
      { query_limit: 1.5 },
      { sid: 'ORCL' },
      { type: 'oracle', sid: '' },
      { type: 'oracle', sid: 'ORCL', database: 'postgres' },
      { type: 'oracle', sid: 'bad sid' },
      { remark: 'r'.repeat(501) },
      { password: 'p'.repeat(257) },
      { status: 'success' },
    ]) {
      const body = { ...pgSettings(), name: 'Bad Input', ...over };
      expectCode(await call('POST', URL, 'owner', { body }), 400, 'VALIDATION-1000');
    }
    await create({ name: 'Taken Name', ...pgSettings() });
    expectCode(await call('POST', URL, 'admin', { body: { name: 'TAKEN name', ...pgSettings() } }), 400, 'VALIDATION-1001');
    expect(await names('owner', { name: 'Bad' })).toEqual([]);
    expect(await names('owner', { name: 'taken' })).toEqual(['Taken Name']);
    // The limits themselves are allowed.
    for (const query_limit of [1, 1000]) expect((await create({ name: `Limit ${query_limit}`, ...pgSettings(), query_limit })).query_limit).toBe(query_limit);
    await settleChecks();
  });

  it('is refused to an ordinary member (403), outside the workspace (VALIDATION-1000) and without the header (VALIDATION-1008)', async () => {
    expectCode(await call('POST', URL, 'member', { body: { name: 'By Member', ...pgSettings() } }), 403, 'PERMISSION-1000');
    expectCode(await call('POST', URL, 'owner', { body: { name: 'In C', ...pgSettings() }, ws: f.wsC }), 400, 'VALIDATION-1000');
    expectCode(await call('POST', URL, 'foreign', { body: { name: 'Foreign', ...pgSettings() } }), 400, 'VALIDATION-1000');
    expectCode(await call('POST', URL, 'owner', { body: { name: 'No Header', ...pgSettings() }, ws: null }), 400, 'VALIDATION-1008');
    for (const name of ['By Member', 'In C', 'Foreign', 'No Header']) expect(await names('owner', { name })).toEqual([]);
    expect(await names('outsider', {}, f.wsC)).toEqual([]);
  });
});

describe('GET /console/databases (list) and /:database_id', () => {
  it('lists newest first for every member, filters by name and type, pages', async () => {
    const a = await create({ name: 'Lst Mysql', type: 'mysql', host: '127.0.0.1', port: closedPort, account: 'a' }, 'owner', f.wsB);
    const b = await create({ name: 'Lst PG', ...pgSettings() }, 'owner', f.wsB);
    const all = expectOk(await call('GET', URL, 'owner', { ws: f.wsB, query: { name: 'lst' } }));
    expect(all).toMatchObject({ total: 2, page: 1, page_size: 20 });
    expect(all.items.map((d: Db) => d.id)).toEqual([b.id, a.id]);
    expect(await names('owner', { type: 'mysql', name: 'lst' }, f.wsB)).toEqual(['Lst Mysql']);
    const p2 = expectOk(await call('GET', URL, 'owner', { ws: f.wsB, query: { name: 'lst', page: 2, page_size: 1 } }));
    expect(p2.items.map((d: Db) => d.name)).toEqual(['Lst Mysql']);
    // A's members do not see B's databases.
    expect(await names('member', { name: 'lst' })).toEqual([]);
    await settleChecks();
    expect((await read(a.id, 'owner', f.wsB)).status).toBe('failed');
  });

  it('refuses page_size above 1000 (VALIDATION-1009), a bad type filter, a missing header and other workspaces', async () => {
    expectCode(await call('GET', URL, 'member', { query: { page_size: 1001 } }), 400, 'VALIDATION-1009');
    expectCode(await call('GET', URL, 'member', { query: { type: 'mongodb' } }), 400, 'VALIDATION-1000');
    expectCode(await call('GET', URL, 'member', { ws: null }), 400, 'VALIDATION-1008');
    expectCode(await call('GET', URL, 'owner', { ws: f.wsC }), 400, 'VALIDATION-1000');
    expectCode(await call('GET', URL, 'foreign'), 400, 'VALIDATION-1000');
  });

  it('answers one database to any member, VALIDATION-1000 for another workspace or an unknown id', async () => {
    const d = await create({ name: 'Get One', ...pgSettings() });
    const inB = await create({ name: 'Get One B', ...pgSettings() }, 'owner', f.wsB);
    await settleChecks();
    const seen = await read(d.id);
    for (const who of ['admin', 'member'] as const) expect(await read(d.id, who)).toEqual(seen);
    expectCode(await call('GET', `${URL}/${inB.id}`, 'owner'), 400, 'VALIDATION-1000');
    expectCode(await call('GET', `${URL}/${MISSING}`, 'owner'), 400, 'VALIDATION-1000');
    expectCode(await call('GET', `${URL}/x`, 'owner'), 400, 'VALIDATION-1000');
    expectCode(await call('GET', `${URL}/${d.id}`, 'outsider'), 400, 'VALIDATION-1000');
    expectCode(await call('GET', `${URL}/${d.id}`, 'owner', { ws: null }), 400, 'VALIDATION-1008');
  });
});

describe('PUT /console/databases (update)', () => {
  it('renames without a new check; a masked or left-out password keeps the stored one', async () => {
    const d = await create({ name: 'Upd Keep', ...pgSettings() });
    await settleChecks();
    const before = await read(d.id);
    const enc = (await rawRow(d.id)).passwordEnc;
    const r = expectOk(await call('PUT', URL, 'admin', { body: { id: d.id, name: 'Upd Kept', password: '******', remark: 'new remark', query_limit: 7 } }));
    expect(r).toMatchObject({ name: 'Upd Kept', remark: 'new remark', query_limit: 7, status: 'success', checked_at: before.checked_at, password: '******' });
    expect((await rawRow(d.id)).passwordEnc).toBe(enc);
    expect(await revealed(d.id)).toBe(role.password);
  });

  it('starts a new check when a connection field changes', async (t) => {
    if (!authEnforced) t.skip();
    const d = await create({ name: 'Upd Recheck', ...pgSettings() });
    await settleChecks();
    const r = expectOk(await call('PUT', URL, 'owner', { body: { id: d.id, password: 'now-wrong' } }));
    expect(r).toMatchObject({ status: 'detecting', status_code: '', checked_at: null });
    await settleChecks();
    expect(await read(d.id)).toMatchObject({ status: 'failed', status_code: 'auth_failed' });
    expect(await revealed(d.id)).toBe('now-wrong');
    expect((await rawRow(d.id)).passwordEnc).not.toContain('now-wrong');
    expectOk(await call('PUT', URL, 'owner', { body: { id: d.id, password: role.password } }));
    await settleChecks();
    expect(await read(d.id)).toMatchObject({ status: 'success', status_code: 'ok' });
    // Port change: detecting again, then failed.
    expectOk(await call('PUT', URL, 'owner', { body: { id: d.id, port: closedPort } }));
    await settleChecks();
    expect(await read(d.id)).toMatchObject({ status: 'failed', status_code: 'unreachable', port: closedPort });
  });

  it('applies the SID rule to the merged settings', async () => {
    const d = await create({ name: 'Upd Sid', ...pgSettings() });
    expectCode(await call('PUT', URL, 'owner', { body: { id: d.id, type: 'oracle' } }), 400, 'VALIDATION-1000');
    expectCode(await call('PUT', URL, 'owner', { body: { id: d.id, sid: 'ORCL' } }), 400, 'VALIDATION-1000');
    const r = expectOk(await call('PUT', URL, 'owner', { body: { id: d.id, type: 'oracle', sid: 'ORCL', database: '' } }));
    expect(r).toMatchObject({ type: 'oracle', sid: 'ORCL', database: '', status: 'detecting' });
    await settleChecks();
  });

  it('refuses no id (VALIDATION-1003), nothing to change (VALIDATION-1012), bad input and a taken name; nothing changes', async () => {
    await create({ name: 'Upd Taken', ...pgSettings() });
    const d = await create({ name: 'Upd Bad', ...pgSettings() });
    await settleChecks();
    const before = await read(d.id);
    expectCode(await call('PUT', URL, 'owner', { body: { name: 'X' } }), 400, 'VALIDATION-1003');
    expectCode(await call('PUT', URL, 'owner', { body: { id: d.id } }), 400, 'VALIDATION-1012');
    expectCode(await call('PUT', URL, 'owner', { body: { id: d.id, name: 'upd taken' } }), 400, 'VALIDATION-1001');
    for (const over of [{ port: 70000 }, { host: 'http://x' }, { query_limit: 0 }, { type: 'x' }, { status: 'success' }]) {
      expectCode(await call('PUT', URL, 'owner', { body: { id: d.id, ...over } }), 400, 'VALIDATION-1000');
    }
    expect(await read(d.id)).toEqual(before);
  });

  it('is refused to an ordinary member (403) and for another workspace (VALIDATION-1000); nothing changes', async () => {
    const d = await create({ name: 'Upd Roles', ...pgSettings() });
    const inB = await create({ name: 'Upd Roles B', ...pgSettings() }, 'owner', f.wsB);
    await settleChecks();
    const [before, beforeB] = [await read(d.id), await read(inB.id, 'owner', f.wsB)];
    expectCode(await call('PUT', URL, 'member', { body: { id: d.id, host: 'evil.example' } }), 403, 'PERMISSION-1000');
    expectCode(await call('PUT', URL, 'owner', { body: { id: inB.id, name: 'Moved' } }), 400, 'VALIDATION-1000');
    expectCode(await call('PUT', URL, 'owner', { body: { id: d.id, name: 'Moved' }, ws: null }), 400, 'VALIDATION-1008');
    expect(await read(d.id)).toEqual(before);
    expect(await read(inB.id, 'owner', f.wsB)).toEqual(beforeB);
  });
});

describe('GET /console/databases/:database_id/check (saved settings)', () => {
  it('checks now and records the outcome, for any member', async () => {
    const d = await create({ name: 'Recheck', ...pgSettings() });
    await settleChecks();
    const first = await read(d.id);
    await new Promise((r) => setTimeout(r, 5));
    const r = expectOk(await call('GET', `${URL}/${d.id}/check`, 'member'));
    expect(r).toMatchObject({ id: d.id, status: 'success', status_code: 'ok' });
    expect(new Date(r.checked_at).getTime()).toBeGreaterThan(new Date(first.checked_at!).getTime());
    // A database that cannot be reached.
    const down = await create({ name: 'Recheck Down', type: 'clickhouse', host: '127.0.0.1', port: closedPort, account: 'default' });
    await settleChecks();
    const rd = expectOk(await call('GET', `${URL}/${down.id}/check`, 'admin'));
    expect(rd).toMatchObject({ status: 'failed', status_code: 'unreachable' });
    expect(rd.status_message).toBe(`Could not connect to a ClickHouse server at 127.0.0.1:${closedPort}`);
  });

  it('answers VALIDATION-1000 for another workspace and an unknown id, VALIDATION-1008 without the header', async () => {
    const inB = await create({ name: 'Recheck B', ...pgSettings() }, 'owner', f.wsB);
    await settleChecks();
    const before = await read(inB.id, 'owner', f.wsB);
    expectCode(await call('GET', `${URL}/${inB.id}/check`, 'owner'), 400, 'VALIDATION-1000');
    expectCode(await call('GET', `${URL}/${inB.id}/check`, 'outsider', { ws: f.wsB }), 400, 'VALIDATION-1000');
    expectCode(await call('GET', `${URL}/${MISSING}/check`, 'owner'), 400, 'VALIDATION-1000');
    expectCode(await call('GET', `${URL}/${inB.id}/check`, 'owner', { ws: null }), 400, 'VALIDATION-1008');
    expect(await read(inB.id, 'owner', f.wsB)).toEqual(before);
  });
});

describe('GET /console/databases/:database_id/password', () => {
  it('reveals the password to owner and admin only', async () => {
    const d = await create({ name: 'Reveal Pw', ...pgSettings() });
    const inB = await create({ name: 'Reveal Pw B', ...pgSettings() }, 'owner', f.wsB);
    for (const who of ['owner', 'admin'] as const) {
      expect(expectOk(await call('GET', `${URL}/${d.id}/password`, who))).toEqual({ id: d.id, password: role.password });
    }
    const refused = [
      [await call('GET', `${URL}/${d.id}/password`, 'member'), 403, 'PERMISSION-1000'],
      [await call('GET', `${URL}/${inB.id}/password`, 'owner'), 400, 'VALIDATION-1000'],
      [await call('GET', `${URL}/${d.id}/password`, 'outsider'), 400, 'VALIDATION-1000'],
      [await call('GET', `${URL}/${d.id}/password`, 'foreign'), 400, 'VALIDATION-1000'],
      [await call('GET', `${URL}/${MISSING}/password`, 'owner'), 400, 'VALIDATION-1000'],
      [await call('GET', `${URL}/${d.id}/password`, 'owner', { ws: null }), 400, 'VALIDATION-1008'],
    ] as const;
    for (const [r, status, code] of refused) {
      expectCode(r, status, code);
      expect(JSON.stringify(r.body)).not.toContain(role.password);
    }
    await settleChecks();
  });
});

describe('DELETE /console/databases/:database_id', () => {
  it('lets owner and admin delete; refuses an ordinary member, another workspace and a missing header', async () => {
    const d = await create({ name: 'Del Me', ...pgSettings() });
    const keep = await create({ name: 'Del Keep', ...pgSettings() });
    const inB = await create({ name: 'Del Keep B', ...pgSettings() }, 'owner', f.wsB);
    await settleChecks();
    expectCode(await call('DELETE', `${URL}/${keep.id}`, 'member'), 403, 'PERMISSION-1000');
    expectCode(await call('DELETE', `${URL}/${inB.id}`, 'owner'), 400, 'VALIDATION-1000');
    expectCode(await call('DELETE', `${URL}/${keep.id}`, 'owner', { ws: null }), 400, 'VALIDATION-1008');
    expect((await read(keep.id)).name).toBe('Del Keep');
    expect((await read(inB.id, 'owner', f.wsB)).name).toBe('Del Keep B');
    expect((await call('DELETE', `${URL}/${d.id}`, 'admin')).body).toEqual({ code: 0, msg: 'success', data: null });
    expect(await rawRow(d.id)).toBeUndefined();
    expectCode(await call('GET', `${URL}/${d.id}`, 'owner'), 400, 'VALIDATION-1000');
    expectCode(await call('DELETE', `${URL}/${d.id}`, 'owner'), 400, 'VALIDATION-1000');
  });

  it('a check finishing after the delete records nothing', async () => {
    const d = await create({ name: 'Del While Checking', ...pgSettings() });
    expectOk(await call('DELETE', `${URL}/${d.id}`, 'owner'));
    await settleChecks();
    expect(await rawRow(d.id)).toBeUndefined();
  });
});
