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
  return { text: `INSERT INTO ${quote(getTableName(table))} (${names}) VALUES ${tuples.join(', ')}${conflict}`, params };
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

/** Several statements as one: data-modifying CTEs (`WITH w0 AS (…), w1 AS (…) SELECT 1`), parameters renumbered. */
export function combine(parts: RawSql[]): RawSql {
  const params: unknown[] = [];
  const ctes = parts.map((p, i) => {
    const offset = params.length;
    params.push(...p.params);
    // The texts hold identifiers and placeholders only (no literals), so every `$n` is a parameter.
    return `w${i} AS (${p.text.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`)})`;
  });
  return { text: `WITH ${ctes.join(', ')} SELECT 1`, params };
}

/** Runs a statement on drizzle's session (the driver's own parameter handling, as db.execute). */
export async function executeRaw(db: Db, q: RawSql): Promise<void> {
  await db._.session.prepareQuery({ sql: q.text, params: q.params }, undefined, undefined, false).execute();
}
