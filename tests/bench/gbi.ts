/**
 * GBI benchmark (`npm run bench:gbi`): prints figures, asserts nothing (issue 30 "Speed": a
 * 1,000,000-row CSV loads in ≤ 10 s and a grouped aggregate over it answers in ≤ 1 s). Writes a
 * CSV of BENCH_ROWS rows (default 1,000,000: region, product, day, amount, quantity) to a temp
 * directory, then times what the server does: the preview (DuckDB's sniffer, row count, first
 * rows), the load into a source's DuckDB file, and grouped aggregates through the SQL guard and the
 * read-only query path (a read-only instance opened per query, as the server does). Every figure is
 * printed beside `uptime` (the machine's load).
 */
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadCsv, queryDuckDb, sniffCsv } from '../../src/server/gbi/duckdb-store';
import { checkSql } from '../../src/server/gbi/sql-guard';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const load = () => execSync('uptime').toString().trim().replace(/^.*load/, 'load');
const ms = (t0: number) => (performance.now() - t0).toFixed(0).padStart(6);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'weft-gbi-bench-'));
try {
  const csv = path.join(dir, 'sales.csv');
  const regions = ['north', 'south', 'east', 'west', 'central'];
  const out = fs.openSync(csv, 'w');
  fs.writeSync(out, 'Region,Product,Sold On,Amount,Quantity\n');
  const day0 = Date.UTC(2024, 0, 1);
  let buf = '';
  for (let i = 0; i < ROWS; i++) {
    const day = new Date(day0 + (i % 366) * 86_400_000).toISOString().slice(0, 10);
    buf += `${regions[i % 5]},product ${i % 97},${day},${((i * 7919) % 100_000) / 100},${(i % 13) + 1}\n`;
    if (buf.length > 1 << 20) {
      fs.writeSync(out, buf);
      buf = '';
    }
  }
  fs.writeSync(out, buf);
  fs.closeSync(out);
  const mb = (fs.statSync(csv).size / 1024 / 1024).toFixed(1);
  console.log(`GBI bench: ${ROWS.toLocaleString('en')} rows, ${mb} MB CSV   (${load()})`);

  let t0 = performance.now();
  const shape = await sniffCsv(csv, 20);
  console.log(`preview (sniff, count, 20 rows) ${ms(t0)} ms   header ${shape.headerDetected}, ${shape.rowCount} rows, types ${shape.columns.map((c) => c.dataType).join('/')}   (${load()})`);

  const db = path.join(dir, 'source.duckdb');
  t0 = performance.now();
  const loaded = await loadCsv(db, 'sales', csv, 5);
  console.log(`load into DuckDB (+ samples)     ${ms(t0)} ms   ${loaded.rowCount} rows, file ${(fs.statSync(db).size / 1024 / 1024).toFixed(1)} MB   (${load()})`);

  const queries = [
    'select region, sum(amount) as total, count(*) as n from sales group by region order by total desc',
    'select sold_on, sum(amount) as total from sales group by sold_on order by sold_on',
    'select product, region, avg(quantity) as q from sales group by product, region order by q desc limit 20',
  ];
  for (const q of queries) {
    const times: number[] = [];
    let rows = 0;
    for (let i = 0; i < 4; i++) {
      t0 = performance.now();
      const r = await queryDuckDb(db, checkSql(q, 'duckdb', ['sales']), 1000, 15_000);
      times.push(performance.now() - t0);
      rows = r.rows.length;
    }
    const [first, ...rest] = times;
    console.log(`aggregate: first ${first.toFixed(0).padStart(5)} ms, median of next ${rest.length} ${[...rest].sort((a, b) => a - b)[1].toFixed(0).padStart(5)} ms, ${rows} rows   ${q.slice(0, 60)}...   (${load()})`);
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
