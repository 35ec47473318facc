import { describe, expect, it } from 'vitest';
import { checkSql, SqlRefusedError } from './sql-guard';

const TABLES = ['sales', 'public.orders'];
const refused = (sql: string, dialect: 'postgresql' | 'duckdb' = 'postgresql') => {
  try {
    checkSql(sql, dialect, TABLES);
  } catch (e) {
    expect(e).toBeInstanceOf(SqlRefusedError);
    return (e as SqlRefusedError).reason;
  }
  throw new Error(`not refused: ${sql}`);
};

describe('GBI SQL guard', () => {
  it('passes one read-only SELECT over known tables, CTEs and subqueries', () => {
    expect(checkSql('select region, sum(amount) as total from sales group by region order by total desc', 'postgresql', TABLES)).toMatch(/select/i);
    expect(checkSql('with a as (select * from sales) select count(*) from a', 'duckdb', TABLES)).toBeTruthy();
    expect(checkSql('select o.id from public.orders o join (select region from sales) s on true;', 'postgresql', TABLES)).toBeTruthy();
    expect(checkSql('select * from orders', 'postgresql', TABLES)).toBeTruthy();
  });

  it('refuses DDL, DML, several statements and SELECT INTO', () => {
    expect(refused('drop table sales')).toBe('not_select');
    expect(refused('delete from sales')).toBe('not_select');
    expect(refused('select 1; drop table sales')).toBe('multiple_statements');
    expect(refused('select * into t2 from sales')).toBe('select_into');
    expect(refused('copy sales to \'/tmp/x\'')).toBe('unparsable');
  });

  it('refuses functions that read or write files or reach the network, and unknown tables', () => {
    expect(refused("select pg_read_file('/etc/passwd')")).toBe('function');
    expect(refused("select lo_import('/etc/passwd')")).toBe('function');
    expect(refused("select * from read_csv('/etc/passwd')", 'duckdb')).toBe('function');
    expect(refused("select * from sales where region in (select * from read_parquet('s3://x/y'))", 'duckdb')).toBe('function');
    expect(refused("select query_to_xml('drop table sales', true, true, '')")).toBe('function');
    expect(refused("select * from 'x.csv'", 'duckdb')).toBe('table');
    expect(refused('select * from pg_shadow')).toBe('table');
  });
});
