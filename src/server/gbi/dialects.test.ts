import { describe, expect, it } from 'vitest';
import { clickhouseSettings, columnsSql, DIALECTS, kindOfType, readOnlyStatements, sampleSql } from './dialects';
import { checkSql, SqlRefusedError } from './sql-guard';

// SQL Server, Oracle, ClickHouse and DM cannot run on this machine: what GBI sends them (the row
// limit, the read-only statements, the schema and sample queries) and what the guard lets through
// for their dialects is checked here as text. MySQL also runs for real in tests/api/gbi-mysql.test.ts.

const reason = (sql: string, dialect: Parameters<typeof checkSql>[1], tables = ['sales', 'dbo.orders', 'SALES']) => {
  try {
    checkSql(sql, dialect, tables);
  } catch (e) {
    expect(e).toBeInstanceOf(SqlRefusedError);
    return (e as SqlRefusedError).reason;
  }
  return 'passed';
};

describe('GBI dialects', () => {
  it('writes the row limit the dialect’s way', () => {
    expect(DIALECTS.postgresql.limited('select 1', 11)).toBe('SELECT * FROM (select 1) AS gbi_query LIMIT 11');
    expect(DIALECTS.oracle.limited('select a from t order by a', 11)).toBe('SELECT * FROM (select a from t order by a) gbi_query WHERE ROWNUM <= 11');
    expect(DIALECTS.dm.limited('select 1 from dual', 3)).toBe('SELECT * FROM (select 1 from dual) gbi_query WHERE ROWNUM <= 3');
    // Capped by the session instead, so the query's ORDER BY stays where it is.
    for (const d of ['mysql', 'sqlserver', 'clickhouse'] as const) expect(DIALECTS[d].limited('select a from t order by a', 11)).toBe('select a from t order by a');
    expect(readOnlyStatements('sqlserver', 30_000, 11)).toEqual(['SET ROWCOUNT 11', 'SET LOCK_TIMEOUT 30000', 'SET TRANSACTION ISOLATION LEVEL READ COMMITTED', 'BEGIN TRANSACTION']);
    expect(readOnlyStatements('mysql', 30_000, 11)).toContain('SET SESSION sql_select_limit = 11');
    expect(clickhouseSettings(2500, 11)).toMatchObject({ max_result_rows: '11', result_overflow_mode: 'break' });
  });

  it('makes the session read-only with a timeout', () => {
    expect(readOnlyStatements('mysql', 2500, 11, { mariadb: true })).toEqual(['SET SESSION max_statement_time = 3', 'SET SESSION sql_select_limit = 11', 'START TRANSACTION READ ONLY']);
    expect(readOnlyStatements('mysql', 2500, 11)[0]).toBe('SET SESSION max_execution_time = 2500');
    expect(readOnlyStatements('oracle', 1000, 11)).toEqual(['SET TRANSACTION READ ONLY']);
    expect(readOnlyStatements('dm', 1000, 11)).toEqual(['SET TRANSACTION READ ONLY']);
    expect(readOnlyStatements('postgresql', 1000, 11)).toEqual(['BEGIN READ ONLY', 'SET LOCAL statement_timeout = 1000']);
    // readonly=1 last: ClickHouse refuses settings given after it in the same request.
    const ch = Object.entries(clickhouseSettings(2500, 11));
    expect(ch.at(-1)).toEqual(['readonly', '1']);
    expect(ch[0]).toEqual(['max_execution_time', 3]);
  });

  it('reads the schema and samples with each dialect’s catalogue and quoting', () => {
    expect(columnsSql('sqlserver', 'shop').sql).toMatch(/FROM INFORMATION_SCHEMA\.COLUMNS/);
    expect(columnsSql('oracle', '').sql).toMatch(/FROM USER_TAB_COLUMNS/);
    expect(columnsSql('dm', "SHO'P").sql).toContain("WHERE OWNER = 'SHO''P'");
    expect(columnsSql('clickhouse', 'shop')).toMatchObject({ sql: expect.stringContaining('database = {db:String}'), binds: ['shop'] });
    expect(columnsSql('mysql', 'shop')).toMatchObject({ sql: expect.stringContaining('TABLE_SCHEMA = ?'), binds: ['shop'] });
    expect(sampleSql('sqlserver', 'dbo', 'or]ders')).toBe('SELECT TOP (200) * FROM [dbo].[or]]ders]');
    expect(sampleSql('oracle', null, 'SALES')).toBe('SELECT * FROM "SALES" WHERE ROWNUM <= 200');
    expect(sampleSql('clickhouse', 'default', 'sales')).toBe('SELECT * FROM `default`.`sales` LIMIT 200');
    expect(kindOfType('Nullable(Decimal(10, 2))')).toBe('numeric');
    expect(kindOfType('NUMBER')).toBe('numeric');
    expect(kindOfType('DateTime64(3)')).toBe('date');
    expect(kindOfType('nvarchar')).toBe('text');
  });

  it('guards every dialect: one SELECT over the source’s tables, no file, network or server functions', () => {
    expect(reason('SELECT TOP 5 region FROM dbo.orders ORDER BY region', 'sqlserver')).toBe('passed');
    expect(reason('SELECT "REGION", SUM("AMOUNT") FROM "SALES" GROUP BY "REGION" FETCH FIRST 5 ROWS ONLY', 'oracle')).toBe('passed');
    expect(reason('SELECT region FROM sales WHERE ROWNUM <= 5', 'dm')).toBe('passed');
    expect(reason('SELECT toStartOfMonth(sold_on) AS m, sum(amount) FROM sales GROUP BY m ORDER BY m', 'clickhouse')).toBe('passed');
    for (const d of ['sqlserver', 'oracle', 'dm', 'clickhouse', 'mysql'] as const) {
      expect(['not_select', 'unparsable']).toContain(reason('DROP TABLE sales', d));
      expect(['not_select', 'unparsable']).toContain(reason('DELETE FROM sales', d));
      expect(['multiple_statements', 'unparsable']).toContain(reason('SELECT 1; DELETE FROM sales', d));
      expect(reason('SELECT * FROM secrets', d), d).toBe('table');
    }
    expect(reason("SELECT * FROM OPENROWSET('SQLNCLI', 'Server=x;', 'select 1')", 'sqlserver')).not.toBe('passed');
    expect(reason("SELECT UTL_HTTP.REQUEST('http://x') FROM sales", 'oracle')).toBe('function');
    expect(reason("SELECT DBMS_XMLGEN.GETXML('select 1 from dual') FROM sales", 'dm')).toBe('function');
    expect(reason("SELECT * FROM url('http://x/y.csv', CSV)", 'clickhouse')).not.toBe('passed');
    expect(reason("SELECT file('/etc/passwd')", 'clickhouse')).toBe('function');
    expect(reason("SELECT * FROM remote('10.0.0.1', system.users)", 'clickhouse')).not.toBe('passed');
    expect(reason("SELECT load_file('/etc/passwd')", 'mysql')).toBe('function');
    expect(reason("SELECT * FROM sales INTO OUTFILE '/tmp/x'", 'mysql')).toBe('select_into');
  });
});
