import { randomBytes } from 'node:crypto';
import ExcelJS from 'exceljs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settleChecks } from '../../src/server/services/databases';
import { scriptedModel, type ScriptedModel } from './gbi-kit';
import { LOOPBACK_FAKES, useStudio } from './harness';
import { postgresServer } from './postgres-server';
import { makeDoc, makeXls } from '../../src/server/knowledge/test-files';
import { upload, useTempDataDir } from './knowledge-kit';
import { configureProvider } from './runs-kit';
import { expectCode, expectOk, type Fixture, setUpWorkspaces, type Who } from './workspace-fixture';

// GBI (issue 30) against the real server: a real PostgreSQL server as a source (the one of
// DATABASE_URL, or another: tests/api/postgres-server.ts), spreadsheets loaded into DuckDB, and
// an OpenAI-compatible fake whose SQL each test scripts: refused SQL changes nothing.

const h = useStudio(LOOPBACK_FAKES);
useTempDataDir(h);
const URL = '/api/v1/console/gbi';
let f: Fixture;
const target = { host: '127.0.0.1', port: 0, user: '', password: '' };
const sourceDb = `gbi_src_${randomBytes(4).toString('hex')}`;
let stopPostgres: (() => Promise<void>) | undefined;
let fake: ScriptedModel;

/** What the model answers to the question (last user message); a retry after a database error is asked as "corrected". */
const SCRIPT: Record<string, string | [string, string]> = {
  'total by region': '```sql\nselect region, sum(amount) as total from sales group by region order by total desc\n```',
  'and north only?': "```sql\nselect sum(amount) as total from sales where region = 'north'\n```",
  'drop it': 'DROP TABLE sales',
  'two statements': '```sql\nselect 1; delete from sales\n```',
  'read a file (pg)': "```sql\nselect pg_read_file('/etc/passwd')\n```",
  'read a file (duckdb)': "```sql\nselect * from read_csv('/etc/passwd')\n```",
  'fix me': ['```sql\nselect nope from sales\n```', '```sql\nselect count(*) as n from sales\n```'],
  'fix me (duckdb)': ['select nope from orders', 'select count(*) as n from orders'],
  'never works': ['select nope from sales', 'select nope_again from sales'],
  'stock total': 'select sum(qty) as total from stock',
  'sales by city': '```sql\nselect city, sum(amount) as total from orders group by city order by city\n```',
};

const admin = (database = 'postgres') => new pg.Client({ host: target.host, port: target.port, user: target.user, password: target.password, database });

beforeAll(async () => {
  const server = await postgresServer();
  stopPostgres = server.stop;
  const u = new globalThis.URL(server.url);
  Object.assign(target, { host: u.hostname, port: Number(u.port || 5432), user: decodeURIComponent(u.username), password: decodeURIComponent(u.password) });
  const c = admin();
  await c.connect();
  await c.query(`CREATE DATABASE ${sourceDb}`);
  await c.end();
  const s = admin(sourceDb);
  await s.connect();
  await s.query(`CREATE TABLE sales (region text, amount numeric, sold_on date);
    INSERT INTO sales VALUES ('north', 10, '2024-01-01'), ('north', 15, '2024-02-01'), ('south', 7, '2024-01-15'), ('east', 3, '2024-03-01');`);
  await s.end();
  fake = await scriptedModel(SCRIPT);
  await configureProvider(h, 'openai', fake.baseUrl);
  expectOk(await h.call('PUT', '/api/v1/admin/models/tenant-default', { token: h.adminToken, body: { model_type: 'llm', provider: 'openai', model: 'gpt-4o-mini' } }));
  f = await setUpWorkspaces(h, 'gbi');
}, 120_000);

afterAll(async () => {
  await settleChecks();
  await fake?.close();
  try {
    const c = admin();
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${sourceDb} WITH (FORCE)`);
    await c.end();
  } finally {
    await stopPostgres?.();
  }
}, 60_000);

const call = (method: string, url: string, who: Who, body?: unknown, ws: string = f.wsA) => h.call(method, `${URL}${url}`, { token: f.u[who].token, workspaceId: ws, body });

async function salesCount(): Promise<number> {
  const s = admin(sourceDb);
  await s.connect();
  try {
    return Number((await s.query('select count(*) as n from sales')).rows[0].n);
  } finally {
    await s.end();
  }
}

async function askIn(session: string, question: string, who: Who = 'member') {
  return expectOk(await call('POST', `/sessions/${session}/ask`, who, { question }));
}

describe('GBI with a PostgreSQL source', () => {
  let sourceId = '';
  let session = '';

  it('adds a database of the space as a source: tables, columns, sample values read; managers only', async () => {
    const db = expectOk(
      await h.call('POST', '/api/v1/console/databases', {
        token: f.u.owner.token,
        workspaceId: f.wsA,
        body: { name: 'Sales DB', type: 'postgresql', host: target.host, port: target.port, account: target.user, password: target.password, database: sourceDb, query_limit: 50 },
      }),
    );
    expectCode(await call('POST', '/sources/database', 'member', { database_id: db.id }), 403, 'PERMISSION-1000');
    expectCode(await call('POST', '/sources/database', 'outsider', { database_id: db.id }, f.wsC), 400, 'VALIDATION-1000');
    const src = expectOk(await call('POST', '/sources/database', 'owner', { database_id: db.id }));
    sourceId = src.id;
    expect(src).toMatchObject({ kind: 'database', dialect: 'postgresql', name: 'Sales DB', query_limit: 50 });
    expect(JSON.stringify(src)).not.toContain(target.password);
    const sales = src.tables.find((t: { name: string }) => t.name === 'public.sales');
    expect(sales.columns.map((c: { name: string }) => c.name)).toEqual(['region', 'amount', 'sold_on']);
    expect(sales.columns[0].sample_values).toEqual(expect.arrayContaining(['north', 'south', 'east']));
    expectCode(await call('POST', '/sources/database', 'owner', { database_id: db.id }), 400, 'VALIDATION-1001');
  });

  it('describes the data: business names and descriptions; a foreign column id changes nothing', async () => {
    const src = expectOk(await call('GET', `/sources/${sourceId}`, 'member'));
    const table = src.tables[0];
    expectCode(await call('PUT', `/sources/${sourceId}`, 'member', { description: 'x' }), 403, 'PERMISSION-1000');
    const bad = { tables: [{ id: table.id, business_name: 'Should not stay', columns: [{ id: '7d0c6b1e-0000-4000-8000-000000000000', business_name: 'x' }] }] };
    expectCode(await call('PUT', `/sources/${sourceId}`, 'owner', bad), 400, 'VALIDATION-1000');
    const body = { description: 'Shop sales', tables: [{ id: table.id, business_name: '销售', description: 'One row per sale', columns: [{ id: table.columns[1].id, business_name: '金额', description: 'In yuan' }] }] };
    const after = expectOk(await call('PUT', `/sources/${sourceId}`, 'admin', body));
    expect(after.tables[0]).toMatchObject({ business_name: '销售', description: 'One row per sale' });
    expect(after.tables[0].columns[1]).toMatchObject({ business_name: '金额', description: 'In yuan' });
  });

  it("previews a table's rows read-only: business names, limit 1–1000 (default 100); foreign ids are not found", async () => {
    const src = expectOk(await call('GET', `/sources/${sourceId}`, 'member'));
    const table = src.tables.find((t: { name: string }) => t.name === 'public.sales');
    const rows = (q = '', who: Who = 'member', ws = f.wsA, tableId = table.id) => call('GET', `/sources/${sourceId}/tables/${tableId}/rows${q}`, who, undefined, ws);
    // No time limit asserted (machines are noisy: 3.3 s at load 21 failed a 3 s bound); a preview that
    // waited for the query timeout would fail below, not pass slowly.
    const all = expectOk(await rows());
    expect(all).toMatchObject({ limit: 100, truncated: false, table: { id: table.id, name: 'public.sales', business_name: '销售' } });
    expect(all.columns.map((c: { name: string; business_name: string }) => [c.name, c.business_name])).toEqual([['region', ''], ['amount', '金额'], ['sold_on', '']]);
    expect(all.rows.map((r: unknown[]) => [r[0], r[1]]).sort()).toEqual([['east', 3], ['north', 10], ['north', 15], ['south', 7]]);
    const two = expectOk(await rows('?limit=2'));
    expect(two).toMatchObject({ limit: 2, truncated: true });
    expect(two.rows).toHaveLength(2);
    for (const q of ['?limit=0', '?limit=1001', '?limit=x']) expectCode(await rows(q), 400, 'VALIDATION-1000');
    expectCode(await rows('', 'foreign', f.wsA), 400, 'VALIDATION-1000');
    expectCode(await rows('', 'outsider', f.wsC), 400, 'VALIDATION-1000');
    expectCode(await rows('', 'member', f.wsA, '7d0c6b1e-0000-4000-8000-000000000000'), 400, 'VALIDATION-1000');
    expect(await salesCount()).toBe(4);
    const doc = (await h.call('GET', '/api/v1/openapi.json')).raw.json();
    const op = doc.paths['/api/v1/console/gbi/sources/{source_id}/tables/{table_id}/rows'].get;
    expect(op.parameters.find((p: { name: string }) => p.name === 'limit').schema).toMatchObject({ minimum: 1, maximum: 1000, default: 100 });
  });

  it('asks: SQL from the described schema, run read-only, result, chart, answer; follow-ups carry the conversation', async () => {
    session = expectOk(await call('POST', '/sessions', 'member', { source_id: sourceId })).id;
    const m = await askIn(session, 'total by region');
    expect(m).toMatchObject({ status: 'ok', error: null, answer: 'The answer is in the table.' });
    expect(m.sql).toMatch(/^select region, sum\(amount\)/);
    expect(m.result.rows).toEqual([['north', 25], ['south', 7], ['east', 3]]);
    expect(m.chart).toEqual({ kind: 'pie', category: 0, values: [1] });
    const system = fake.requests.at(-2)!.messages[0].content;
    expect(system).toContain('TABLE public.sales -- 销售: One row per sale');
    expect(system).toContain('amount numeric -- 金额: In yuan');
    expect(system).not.toContain(target.password);
    const follow = await askIn(session, 'and north only?');
    expect(follow.result.rows).toEqual([[25]]);
    expect(follow.chart.kind).toBe('number');
    const asked = fake.requests.at(-2)!.messages.map((x) => x.content);
    expect(asked).toContain('total by region');
    const sessions = expectOk(await call('GET', '/sessions', 'member'));
    expect(sessions[0]).toMatchObject({ id: session, name: 'total by region', source_id: sourceId });
  });

  it('refuses a DROP, two statements and a file read: nothing ran, nothing changed', async () => {
    for (const q of ['drop it', 'two statements', 'read a file (pg)']) {
      const m = await askIn(session, q);
      expect(m, q).toMatchObject({ status: 'refused', result: null, error: { code: 'GBI-1000' } });
    }
    expect(await salesCount()).toBe(4);
  });

  it('a database error goes back to the model once, then to the user plainly', async () => {
    const fixed = await askIn(session, 'fix me');
    expect(fixed).toMatchObject({ status: 'ok', sql: 'select count(*) as n from sales' });
    expect(fixed.result.rows).toEqual([[4]]);
    expect(fake.requests.at(-2)!.messages.at(-1)!.content).toContain('column "nope" does not exist');
    const failed = await askIn(session, 'never works');
    expect(failed).toMatchObject({ status: 'failed', result: null, sql: 'select nope_again from sales', error: { code: 'GBI-1001' } });
    expect(failed.error.message).toContain('nope_again');
  });

  it('a source on a host the outbound policy refuses answers NETWORK-1000 before connecting', async () => {
    const db = expectOk(
      await h.call('POST', '/api/v1/console/databases', {
        token: f.u.owner.token,
        workspaceId: f.wsA,
        body: { name: 'Elsewhere', type: 'postgresql', host: '10.1.2.3', port: 5432, account: 'x', password: 'y', database: 'z' },
      }),
    );
    expectCode(await call('POST', '/sources/database', 'owner', { database_id: db.id }), 400, 'NETWORK-1000');
  });

  it('sessions are per user: listed, renamed, deleted by their owner only', async () => {
    expect(expectOk(await call('GET', '/sessions', 'admin'))).toEqual([]);
    expectCode(await call('PUT', `/sessions/${session}`, 'admin', { name: 'mine now' }), 400, 'VALIDATION-1000');
    expectCode(await call('GET', `/sessions/${session}/messages`, 'admin'), 400, 'VALIDATION-1000');
    expectCode(await call('POST', `/sessions/${session}/ask`, 'admin', { question: 'total by region' }), 400, 'VALIDATION-1000');
    expectCode(await call('DELETE', `/sessions/${session}`, 'admin'), 400, 'VALIDATION-1000');
    expect(expectOk(await call('PUT', `/sessions/${session}`, 'member', { name: 'Regions' })).name).toBe('Regions');
    expect((await call('GET', `/sessions/${session}/messages`, 'member')).body.data).toHaveLength(7);
    expectOk(await call('DELETE', `/sessions/${session}`, 'member'));
    expect(expectOk(await call('GET', '/sessions', 'member'))).toEqual([]);
  });
});

describe('GBI with spreadsheet sources (DuckDB)', () => {
  async function xlsx(): Promise<Buffer> {
    const wb = new ExcelJS.Workbook();
    const orders = wb.addWorksheet('Orders 2024');
    orders.addRow([]);
    orders.addRow(['City', 'Order Date', 'Amount']);
    orders.addRow(['Beijing', new Date('2024-01-02'), 12.5]);
    orders.addRow(['Shanghai', new Date('2024-01-03'), 20]);
    orders.addRow(['Beijing', new Date('2024-02-01'), 7.5]);
    const notes = wb.addWorksheet('Notes');
    notes.addRow(['note']);
    notes.addRow(['hello']);
    return Buffer.from(await wb.xlsx.writeBuffer());
  }
  const uploaded = async (name: string, bytes: Buffer | string) => expectOk(await upload(h, f.u.owner.token, f.wsA, name, bytes)).id as string;

  it('previews, loads chosen sheets into DuckDB, asks; refused SQL changes nothing', async () => {
    const fileId = await uploaded('Orders.xlsx', await xlsx());
    const preview = expectOk(await call('POST', '/sources/file/preview', 'owner', { file_id: fileId }));
    expect(preview.sheets.map((s: { sheet: string; table_name: string }) => [s.sheet, s.table_name])).toEqual([
      ['Orders 2024', 'orders_2024'],
      ['Notes', 'notes'],
    ]);
    const orders = preview.sheets[0];
    expect(orders).toMatchObject({ header_detected: true, row_count: 3 });
    expect(orders.columns).toEqual([
      { name: 'city', data_type: 'VARCHAR' },
      { name: 'order_date', data_type: 'DATE' },
      { name: 'amount', data_type: 'DOUBLE' },
    ]);
    expect(orders.rows[0]).toEqual(['Beijing', '2024-01-02', '12.5']);
    expectCode(await call('POST', '/sources/file/preview', 'member', { file_id: fileId }), 403, 'PERMISSION-1000');

    const src = expectOk(await call('POST', '/sources/file', 'owner', { file_id: fileId, sheets: [{ sheet: 'Orders 2024', table_name: 'orders' }] }));
    expect(src).toMatchObject({ kind: 'spreadsheet', dialect: 'duckdb', file_name: 'Orders.xlsx' });
    expect(src.tables).toHaveLength(1);
    expect(src.tables[0]).toMatchObject({ name: 'orders', business_name: 'Orders 2024', row_count: 3 });
    expect(src.tables[0].columns[1]).toMatchObject({ name: 'order_date', business_name: 'Order Date', data_type: 'DATE' });
    expect(src.tables[0].columns[0].sample_values.sort()).toEqual(['Beijing', 'Shanghai']);

    const shown = expectOk(await call('GET', `/sources/${src.id}/tables/${src.tables[0].id}/rows?limit=1000`, 'member'));
    expect(shown).toMatchObject({ limit: 1000, truncated: false, table: { name: 'orders', business_name: 'Orders 2024' } });
    expect(shown.columns.map((c: { name: string; business_name: string }) => [c.name, c.business_name])).toEqual([['city', 'City'], ['order_date', 'Order Date'], ['amount', 'Amount']]);
    expect(shown.rows).toEqual([['Beijing', '2024-01-02', 12.5], ['Shanghai', '2024-01-03', 20], ['Beijing', '2024-02-01', 7.5]]);
    expectCode(await call('GET', `/sources/${src.id}/tables/${src.tables[0].id}/rows`, 'foreign'), 400, 'VALIDATION-1000');

    const session = expectOk(await call('POST', '/sessions', 'member', { source_id: src.id })).id;
    const m = await askIn(session, 'sales by city');
    expect(m).toMatchObject({ status: 'ok', chart: { kind: 'pie', category: 0, values: [1] } });
    expect(m.result.rows).toEqual([['Beijing', 20], ['Shanghai', 20]]);
    for (const q of ['drop it', 'two statements', 'read a file (duckdb)']) {
      expect(await askIn(session, q), q).toMatchObject({ status: 'refused', error: { code: 'GBI-1000' } });
    }
    expect((await askIn(session, 'fix me (duckdb)')).result.rows).toEqual([[3]]);

    // Re-read: the same columns and samples from the DuckDB file, the business words kept.
    const again = expectOk(await call('POST', `/sources/${src.id}/refresh`, 'admin'));
    expect(again.tables[0]).toMatchObject({ id: src.tables[0].id, business_name: 'Orders 2024', row_count: 3 });
    expect(again.tables[0].columns.map((c: { id: string; business_name: string }) => [c.id, c.business_name])).toEqual(src.tables[0].columns.map((c: { id: string; business_name: string }) => [c.id, c.business_name]));
    expect(again.tables[0].columns[0].sample_values.sort()).toEqual(['Beijing', 'Shanghai']);
  });

  it('a CSV with its header detected; an .xls (Excel 97-2003) sheet by sheet; unreadable files answer GBI-1002', async () => {
    const fileId = await uploaded('regions.csv', 'region,amount\nnorth,1\nsouth,2\n');
    const preview = expectOk(await call('POST', '/sources/file/preview', 'owner', { file_id: fileId }));
    expect(preview.sheets[0]).toMatchObject({ table_name: 'regions', header_detected: true, row_count: 2, columns: [{ name: 'region' }, { name: 'amount', data_type: 'BIGINT' }] });
    // Issue 30 names .xls beside .xlsx and .csv: a real BIFF8 workbook (SheetJS writes it), a title gap above the header.
    const xlsBytes = makeXls([
      { name: 'Stock', rows: [[], ['Item', 'Qty'], ['bolts', 40], ['nuts', 2]] },
      { name: 'Empty', rows: [] },
    ]);
    const xls = await uploaded('stock.xls', xlsBytes);
    const shown = expectOk(await call('POST', '/sources/file/preview', 'owner', { file_id: xls }));
    expect(shown.sheets.map((s: { sheet: string }) => s.sheet)).toEqual(['Stock']);
    expect(shown.sheets[0]).toMatchObject({ table_name: 'stock', header_detected: true, row_count: 2, columns: [{ name: 'item', data_type: 'VARCHAR' }, { name: 'qty', data_type: 'BIGINT' }] });
    const src = expectOk(await call('POST', '/sources/file', 'owner', { file_id: xls }));
    expect(src).toMatchObject({ kind: 'spreadsheet', file_name: 'stock.xls', tables: [{ name: 'stock', row_count: 2 }] });
    const session = expectOk(await call('POST', '/sessions', 'owner', { source_id: src.id })).id;
    expect((await askIn(session, 'stock total', 'owner')).result.rows).toEqual([[42]]);
    const broken = await uploaded('old.xls', Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 1, 2, 3]));
    expectCode(await call('POST', '/sources/file/preview', 'owner', { file_id: broken }), 400, 'GBI-1002');
    expectCode(await call('POST', '/sources/file', 'owner', { file_id: broken }), 400, 'GBI-1002');
    // An OLE2 file that is no workbook (a Word 97 document under an .xls name).
    const doc = await uploaded('letter.xls', makeDoc(['Dear reader']));
    expectCode(await call('POST', '/sources/file/preview', 'owner', { file_id: doc }), 400, 'GBI-1002');
    const text = await uploaded('notes.txt', 'just words');
    expectCode(await call('POST', '/sources/file/preview', 'owner', { file_id: text }), 400, 'GBI-1002');
    expect(expectOk(await call('GET', '/sources', 'member')).map((s: { kind: string }) => s.kind)).toEqual(['spreadsheet', 'spreadsheet', 'database']);
  });
});
