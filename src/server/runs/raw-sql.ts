import { getTableColumns, getTableName, is, SQL, type Column } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client';

/**
 * Statements of whole runs (./whole-run.ts) as text and parameters, built without drizzle's query
 * builder. Drizzle builds an INSERT by walking a tree of a few chunks per column of the table, each
 * tested against a dozen entity classes: with a thousand runs a second that walk was 17% of the
 * server thread (bench:api's profile), more than anything but the embedded database itself. These
 * statements have a fixed form, so they are put together directly; the values still go through
 * each column's own mapping to the driver (jsonb as JSON text, timestamps), as drizzle does, and
 * the statement runs on drizzle's session, as `db.execute` would.
 */

/** A statement: text whose parameters are `$1…$n`, with their values in that order. */
export interface RawSql {
  text: string;
  params: unknown[];
  /**
   * An INSERT's text in three pieces (`text` is them joined): {@link combine} puts the rows of
   * inserts with the same head and tail (table, columns, conflict clause) into one INSERT.
   */
  insert?: { head: string; tuples: string; tail: string };
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** A value for a column as drizzle sends it (null stays null). */
function driverValue(column: Column, value: unknown): unknown {
  if (value === null) return null;
  if (is(value, SQL)) throw new Error(`raw-sql: column ${column.name} was given SQL, not a value`);
  return column.mapToDriverValue(value);
}

/**
 * `INSERT INTO table (…) VALUES (…), (…)`: the columns any row sets (absent ones take the column's
 * defaultFn, or its onUpdateFn when it has no default, else the database's DEFAULT: drizzle's rule).
 */
export function insertRows(
  table: PgTable,
  rows: Record<string, unknown>[],
  opts: { onConflictDoNothing?: boolean; onConflictDoUpdate?: { target: string[]; set: string[] } } = {},
): RawSql {
  const columns = Object.entries(getTableColumns(table) as Record<string, Column>);
  const generated = (c: Column) => c.defaultFn ?? (!c.default ? c.onUpdateFn : undefined);
  const used = columns.filter(([key, c]) => generated(c) !== undefined || rows.some((r) => r[key] !== undefined));
  const params: unknown[] = [];
  const tuples = rows.map((row) => {
    const cells = used.map(([key, c]) => {
      let value = row[key];
      if (value === undefined) {
        const make = generated(c);
        if (!make) return 'DEFAULT';
        value = make();
      }
      params.push(driverValue(c, value));
      return `$${params.length}`;
    });
    return `(${cells.join(', ')})`;
  });
  const names = used.map(([, c]) => quote(c.name)).join(', ');
  let conflict = opts.onConflictDoNothing ? ' ON CONFLICT DO NOTHING' : '';
  if (opts.onConflictDoUpdate) {
    // The row's new values win over the stored row's (`excluded`), for the columns named.
    const all = getTableColumns(table) as Record<string, Column>;
    const name = (key: string) => {
      const c = all[key];
      if (!c) throw new Error(`raw-sql: ${getTableName(table)} has no column ${key}`);
      return quote(c.name);
    };
    const target = opts.onConflictDoUpdate.target.map(name).join(', ');
    const set = opts.onConflictDoUpdate.set.map((key) => `${name(key)} = excluded.${name(key)}`).join(', ');
    conflict = ` ON CONFLICT (${target}) DO UPDATE SET ${set}`;
  }
  const head = `INSERT INTO ${quote(getTableName(table))} (${names}) VALUES `;
  const values = tuples.join(', ');
  return { text: `${head}${values}${conflict}`, params, insert: { head, tuples: values, tail: conflict } };
}

/** `UPDATE table SET … WHERE key = value` for one row. */
export function updateRow(table: PgTable, set: Record<string, unknown>, where: [key: string, value: unknown]): RawSql {
  const columns = getTableColumns(table) as Record<string, Column>;
  const params: unknown[] = [];
  const column = (key: string) => {
    const c = columns[key];
    if (!c) throw new Error(`raw-sql: ${getTableName(table)} has no column ${key}`);
    return c;
  };
  const assignments = Object.entries(set)
    .filter(([, v]) => v !== undefined)
    .map(([key, v]) => {
      params.push(driverValue(column(key), v));
      return `${quote(column(key).name)} = $${params.length}`;
    });
  params.push(driverValue(column(where[0]), where[1]));
  return { text: `UPDATE ${quote(getTableName(table))} SET ${assignments.join(', ')} WHERE ${quote(column(where[0]).name)} = $${params.length}`, params };
}

/**
 * Several statements as one: data-modifying CTEs (`WITH w0 AS (…), w1 AS (…) SELECT 1`), parameters
 * renumbered. Inserts into the same table with the same columns and conflict clause become ONE
 * multi-row INSERT (at the first one's place): a statement of many runs is planned as one INSERT
 * per table instead of one per run and table, which was most of its cost on the embedded database
 * (planning grows with the CTEs; rows are cheap). The statement stays atomic as before.
 */
export function combine(parts: RawSql[]): RawSql {
  const params: unknown[] = [];
  // The texts hold identifiers and placeholders only (no literals), so every `$n` is a parameter.
  const renumber = (text: string, offset: number) => (offset ? text.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`) : text);
  const ctes: string[] = [];
  const inserts = new Map<string, { at: number; head: string; tail: string; tuples: string[] }>();
  for (const p of parts) {
    const offset = params.length;
    params.push(...p.params);
    if (!p.insert) {
      ctes.push(renumber(p.text, offset));
      continue;
    }
    const key = `${p.insert.head}\u0000${p.insert.tail}`;
    let g = inserts.get(key);
    if (!g) {
      inserts.set(key, (g = { at: ctes.length, head: p.insert.head, tail: p.insert.tail, tuples: [] }));
      ctes.push('');
    }
    g.tuples.push(renumber(p.insert.tuples, offset));
  }
  for (const g of inserts.values()) ctes[g.at] = `${g.head}${g.tuples.join(', ')}${g.tail}`;
  return { text: `WITH ${ctes.map((c, i) => `w${i} AS (${c})`).join(', ')} SELECT 1`, params };
}

/** Runs a statement on drizzle's session (the driver's own parameter handling, as db.execute). */
export async function executeRaw(db: Db, q: RawSql): Promise<void> {
  await db._.session.prepareQuery({ sql: q.text, params: q.params }, undefined, undefined, false).execute();
}
