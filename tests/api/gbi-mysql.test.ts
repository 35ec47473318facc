import mysql2 from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPENERS } from '../../src/server/gbi/db-openers';
import { settleChecks } from '../../src/server/services/databases';
import { scriptedModel, type ScriptedModel } from './gbi-kit';
import { LOOPBACK_FAKES, useStudio } from './harness';
import { useTempDataDir } from './knowledge-kit';
import { configureProvider } from './runs-kit';
import { expectCode, expectOk, type Fixture, setUpWorkspaces, type Who } from './workspace-fixture';

// GBI with a real MariaDB server as a MySQL source: the one of GBI_MYSQL_URL (npm test starts one
// with scripts/with-mariadb.mjs), else one started here. Never skipped: without a MariaDB install
// startMariadb says how to install it and the file fails.

const h = useStudio(LOOPBACK_FAKES);
useTempDataDir(h);
const URL = '/api/v1/console/gbi';
let f: Fixture;
const target = { host: '127.0.0.1', port: 0, user: '', password: '', database: '' };
let stopMariadb: (() => void) | undefined;
let fake: ScriptedModel;

const SCRIPT: Record<string, string | [string, string]> = {
  'total by region': '```sql\nselect region, sum(amount) as total from sales group by region order by total desc\n```',
  'every sale': 'select * from sales order by amount',
  'drop it': 'DROP TABLE sales',
  'two statements': 'select 1; delete from sales',
  'read a file': "select load_file('/etc/passwd')",
  'write a file': "select * from sales into outfile '/tmp/gbi-out.txt'",
  'fix me': ['select nope from sales', 'select count(*) as n from sales'],
};

const admin = () => mysql2.createConnection({ host: target.host, port: target.port, user: target.user, password: target.password, database: target.database });

beforeAll(async () => {
  let url = process.env.GBI_MYSQL_URL;
  if (!url) {
    const { startMariadb } = (await import('../../scripts/with-mariadb.mjs' as string)) as { startMariadb: () => Promise<{ url: string; stop: () => void }> };
    const db = await startMariadb();
    url = db.url;
    stopMariadb = db.stop;
  }
  const u = new globalThis.URL(url);
  Object.assign(target, { host: u.hostname, port: Number(u.port || 3306), user: decodeURIComponent(u.username), password: decodeURIComponent(u.password), database: u.pathname.slice(1) });
  const c = await admin();
  await c.query('DROP TABLE IF EXISTS sales');
  await c.query('CREATE TABLE sales (region varchar(20), amount decimal(10,2), sold_on date)');
  await c.query("INSERT INTO sales VALUES ('north', 10, '2024-01-01'), ('north', 15, '2024-02-01'), ('south', 7, '2024-01-15'), ('east', 3, '2024-03-01')");
  await c.end();
  fake = await scriptedModel(SCRIPT);
  await configureProvider(h, 'openai', fake.baseUrl);
  expectOk(await h.call('PUT', '/api/v1/admin/models/tenant-default', { token: h.adminToken, body: { model_type: 'llm', provider: 'openai', model: 'gpt-4o-mini' } }));
  f = await setUpWorkspaces(h, 'gbimy');
}, 120_000);

afterAll(async () => {
  await settleChecks();
  await fake?.close();
  stopMariadb?.();
}, 60_000);

const call = (method: string, url: string, who: Who, body?: unknown) => h.call(method, `${URL}${url}`, { token: f.u[who].token, workspaceId: f.wsA, body });
const settings = () => ({ type: 'mysql' as const, host: target.host, port: target.port, account: target.user, password: target.password, database: target.database, sid: '' });

async function salesCount(): Promise<number> {
  const c = await admin();
  try {
    const [rows] = await c.query<mysql2.RowDataPacket[]>('select count(*) as n from sales');
    return Number(rows[0].n);
  } finally {
    await c.end();
  }
}

describe('GBI with a MySQL (MariaDB) source', () => {
  let sourceId = '';
  let session = '';

  it('adds the database as a source: tables, columns and samples read the MySQL way', async () => {
    const db = expectOk(
      await h.call('POST', '/api/v1/console/databases', {
        token: f.u.owner.token,
        workspaceId: f.wsA,
        body: { name: 'Shop', type: 'mysql', host: target.host, port: target.port, account: target.user, password: target.password, database: target.database, query_limit: 2 },
      }),
    );
    const src = expectOk(await call('POST', '/sources/database', 'owner', { database_id: db.id }));
    sourceId = src.id;
    expect(src).toMatchObject({ kind: 'database', dialect: 'mysql', query_limit: 2 });
    const sales = src.tables.find((t: { name: string }) => t.name === 'sales');
    expect(sales.columns.map((c: { name: string; data_type: string }) => [c.name, c.data_type])).toEqual([['region', 'varchar'], ['amount', 'decimal'], ['sold_on', 'date']]);
    expect(sales.columns[0].sample_values).toEqual(expect.arrayContaining(['north', 'south', 'east']));
    expect(sales.row_count).not.toBeUndefined();
  });

  it('asks: MySQL SQL runs read-only; numbers are numbers; the limit (sql_select_limit) keeps the ORDER BY and says it cut', async () => {
    session = expectOk(await call('POST', '/sessions', 'member', { source_id: sourceId })).id;
    const m = expectOk(await call('POST', `/sessions/${session}/ask`, 'member', { question: 'total by region' }));
    expect(m).toMatchObject({ status: 'ok', error: null });
    // Three groups, the source's query limit is 2.
    expect(m.result).toMatchObject({ rows: [['north', 25], ['south', 7]], truncated: true });
    expect(m.result.columns).toEqual([{ name: 'region', data_type: 'text' }, { name: 'total', data_type: 'numeric' }]);
    expect(fake.requests.at(-2)!.messages[0].content).toContain('SQL for a MySQL database');
    const all = expectOk(await call('POST', `/sessions/${session}/ask`, 'member', { question: 'every sale' }));
    expect(all.result.rows[0]).toEqual(['east', 3, '2024-03-01']);
  });

  it('refuses a DROP, two statements, LOAD_FILE and INTO OUTFILE; a database error goes back once', async () => {
    for (const q of ['drop it', 'two statements', 'read a file', 'write a file']) {
      const m = expectOk(await call('POST', `/sessions/${session}/ask`, 'member', { question: q }));
      expect(m, q).toMatchObject({ status: 'refused', result: null, error: { code: 'GBI-1000' } });
    }
    const fixed = expectOk(await call('POST', `/sessions/${session}/ask`, 'member', { question: 'fix me' }));
    expect(fixed).toMatchObject({ status: 'ok', sql: 'select count(*) as n from sales' });
    expect(fake.requests.at(-2)!.messages.at(-1)!.content).toMatch(/Unknown column 'nope'/);
    expect(await salesCount()).toBe(4);
  });

  it('the second wall: the session is a read-only transaction with the server-side timeout', async () => {
    const session = await OPENERS.mysql(settings(), h.studio.ctx.outbound, 1000, 10);
    try {
      await expect(session.run("INSERT INTO sales VALUES ('west', 1, '2024-01-01')")).rejects.toThrow(/READ ONLY transaction/i);
      // SLEEP is refused by the guard; here it stands for a long query the server must stop.
      await expect(session.run('SELECT SLEEP(5)')).rejects.toThrow(/max_statement_time exceeded/);
    } finally {
      await session.close();
    }
    expect(await salesCount()).toBe(4);
  });

  it('re-reads the schema and samples: new and removed columns, the business words of columns that stay are kept', async () => {
    const before = expectOk(await call('GET', `/sources/${sourceId}`, 'member'));
    const sales = before.tables.find((t: { name: string }) => t.name === 'sales');
    const region = sales.columns.find((c: { name: string }) => c.name === 'region');
    expectOk(await call('PUT', `/sources/${sourceId}`, 'owner', { tables: [{ id: sales.id, business_name: '销售', columns: [{ id: region.id, business_name: '区域', description: 'Sales region' }] }] }));
    const c = await admin();
    await c.query('ALTER TABLE sales ADD COLUMN city varchar(20), DROP COLUMN sold_on');
    await c.query("UPDATE sales SET city = 'Wuhan', region = 'west' WHERE amount = 3");
    await c.end();
    expectCode(await call('POST', `/sources/${sourceId}/refresh`, 'member'), 403, 'PERMISSION-1000');
    const after = expectOk(await call('POST', `/sources/${sourceId}/refresh`, 'admin'));
    const table = after.tables.find((t: { name: string }) => t.name === 'sales');
    expect(table).toMatchObject({ id: sales.id, business_name: '销售' });
    expect(table.columns.map((x: { name: string }) => x.name)).toEqual(['region', 'amount', 'city']);
    expect(table.columns[0]).toMatchObject({ id: region.id, business_name: '区域', description: 'Sales region' });
    expect(table.columns[0].sample_values).toContain('west');
    expect(table.columns[2].sample_values).toEqual(['Wuhan']);
  });
});
