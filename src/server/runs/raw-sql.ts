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
  /**
   * A one-row UPDATE by key ({@link updateRow}): {@link combine} makes the updates of one table with
   * the same columns one `UPDATE … FROM (VALUES …)`. `params` are the set values, then the key.
   */
  update?: { table: string; columns: string[]; casts: string[]; key: string };
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

interface ColumnShape {
  key: string;
  column: Column;
  quoted: string;
  /** The column's defaultFn, or its onUpdateFn when it has no default (drizzle's rule). */
  generated: (() => unknown) | undefined;
}

/**
 * A table's columns as the statements use them, worked out once per table: every run writes the
 * same few tables, and listing, filtering and quoting their columns for each statement was a
 * large part of what the run path allocated.
 */
const shapes = new WeakMap<PgTable, { quoted: string; columns: ColumnShape[]; byKey: Map<string, ColumnShape> }>();
function shapeOf(table: PgTable) {
  let s = shapes.get(table);
  if (!s) {
    const columns = Object.entries(getTableColumns(table) as Record<string, Column>).map(([key, c]) => ({
      key,
      column: c,
      quoted: quote(c.name),
      generated: (c.defaultFn ?? (!c.default ? c.onUpdateFn : undefined)) as (() => unknown) | undefined,
    }));
    s = { quoted: quote(getTableName(table)), columns, byKey: new Map(columns.map((c) => [c.key, c])) };
    shapes.set(table, s);
  }
  return s;
}

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
  const { columns } = shapeOf(table);
  const used = columns.filter((c) => c.generated !== undefined || rows.some((r) => r[c.key] !== undefined));
  const params: unknown[] = [];
  let tuples = '';
  for (const row of rows) {
    let cells = '';
    for (const c of used) {
      let value = row[c.key];
      if (cells) cells += ', ';
      if (value === undefined) {
        if (!c.generated) {
          cells += 'DEFAULT';
          continue;
        }
        value = c.generated();
      }
      params.push(driverValue(c.column, value));
      cells += `$${params.length}`;
    }
    tuples += tuples ? `, (${cells})` : `(${cells})`;
  }
  const names = used.map((c) => c.quoted).join(', ');
  let conflict = opts.onConflictDoNothing ? ' ON CONFLICT DO NOTHING' : '';
  if (opts.onConflictDoUpdate) {
    // The row's new values win over the stored row's (`excluded`), for the columns named.
    const { byKey } = shapeOf(table);
    const name = (key: string) => {
      const c = byKey.get(key);
      if (!c) throw new Error(`raw-sql: ${getTableName(table)} has no column ${key}`);
      return c.quoted;
    };
    const target = opts.onConflictDoUpdate.target.map(name).join(', ');
    const set = opts.onConflictDoUpdate.set.map((key) => `${name(key)} = excluded.${name(key)}`).join(', ');
    conflict = ` ON CONFLICT (${target}) DO UPDATE SET ${set}`;
  }
  const head = `INSERT INTO ${shapeOf(table).quoted} (${names}) VALUES `;
  return { text: `${head}${tuples}${conflict}`, params, insert: { head, tuples, tail: conflict } };
}

/** `UPDATE table SET … WHERE key = value` for one row. */
export function updateRow(table: PgTable, set: Record<string, unknown>, where: [key: string, value: unknown]): RawSql {
  const shape = shapeOf(table);
  const column = (key: string) => {
    const c = shape.byKey.get(key);
    if (!c) throw new Error(`raw-sql: ${getTableName(table)} has no column ${key}`);
    return c;
  };
  const params: unknown[] = [];
  let assignments = '';
  for (const key in set) {
    const v = set[key];
    if (v === undefined) continue;
    const c = column(key);
    params.push(driverValue(c.column, v));
    assignments += `${assignments ? ', ' : ''}${c.quoted} = $${params.length}`;
  }
  const key = column(where[0]);
  params.push(driverValue(key.column, where[1]));
  const columns = [...setKeys(set).map((k) => column(k)), key];
  return {
    text: `UPDATE ${shape.quoted} SET ${assignments} WHERE ${key.quoted} = $${params.length}`,
    params,
    update: { table: shape.quoted, columns: columns.map((c) => c.quoted), casts: columns.map((c) => c.column.getSQLType()), key: key.quoted },
  };
}

const setKeys = (set: Record<string, unknown>) => Object.keys(set).filter((k) => set[k] !== undefined);

/**
 * Updates of one table and columns, each a row of values (its key last), as ONE statement: the rows
 * are typed by their columns' casts (a VALUES list would take untyped parameters as text).
 */
function mergedUpdate(u: NonNullable<RawSql['update']>, rows: string[]): string {
  const set = u.columns.slice(0, -1).map((c, i) => `${c} = v.c${i}`).join(', ');
  const names = u.columns.map((_, i) => (i === u.columns.length - 1 ? 'k' : `c${i}`)).join(', ');
  return `UPDATE ${u.table} AS t SET ${set} FROM (VALUES ${rows.join(', ')}) AS v(${names}) WHERE t.${u.key} = v.k`;
}

/** One update's values as a typed VALUES row, its parameters numbered from `offset`. */
function valuesRow(u: NonNullable<RawSql['update']>, offset: number): string {
  return `(${u.casts.map((cast, i) => `$${offset + i + 1}::${cast}`).join(', ')})`;
}

/**
 * Several statements as one: data-modifying CTEs (`WITH w0 AS (…), w1 AS (…) SELECT 1`), parameters
 * renumbered. Inserts into the same table with the same columns and conflict clause become ONE
 * multi-row INSERT (at the first one's place): a statement of many runs is planned as one INSERT
 * per table instead of one per run and table, which was most of its cost on the embedded database
 * (planning grows with the CTEs; rows are cheap). One-row updates of the same table and columns
 * (the ends of streamed runs: their run, message and conversation rows) become ONE
 * `UPDATE … FROM (VALUES …)` the same way. The statement stays atomic as before.
 */
export function combine(parts: RawSql[]): RawSql {
  const params: unknown[] = [];
  const ctes: string[] = [];
  const inserts = new Map<string, { at: number; head: string; tail: string; tuples: string[] }>();
  const updates = new Map<string, { at: number; first: RawSql; firstOffset: number; rows: string[]; keys: Set<unknown> }>();
  for (const p of parts) {
    const offset = params.length;
    for (const v of p.params) params.push(v);
    if (p.update) {
      const u = p.update;
      const groupKey = `${u.table}\u0000${u.columns.join(',')}`;
      const g = updates.get(groupKey);
      const keyValue = p.params[p.params.length - 1];
      if (!g) {
        updates.set(groupKey, { at: ctes.length, first: p, firstOffset: offset, rows: [valuesRow(u, offset)], keys: new Set([keyValue]) });
        ctes.push('');
        continue;
      }
      // The same row twice (two runs of one conversation ending together): apart, as before.
      if (!g.keys.has(keyValue)) {
        g.keys.add(keyValue);
        g.rows.push(valuesRow(u, offset));
        continue;
      }
    }
    if (!p.insert) {
      ctes.push(offset ? renumber(p.text, offset) : p.text);
      continue;
    }
    const key = `${p.insert.head}\u0000${p.insert.tail}`;
    let g = inserts.get(key);
    if (!g) {
      inserts.set(key, (g = { at: ctes.length, head: p.insert.head, tail: p.insert.tail, tuples: [] }));
      ctes.push('');
    }
    g.tuples.push(offset ? renumber(p.insert.tuples, offset) : p.insert.tuples);
  }
  for (const g of inserts.values()) ctes[g.at] = `${g.head}${g.tuples.join(', ')}${g.tail}`;
  // A lone update keeps its own form; several become one UPDATE … FROM (VALUES …).
  for (const g of updates.values()) ctes[g.at] = g.rows.length === 1 ? (g.firstOffset ? renumber(g.first.text, g.firstOffset) : g.first.text) : mergedUpdate(g.first.update!, g.rows);
  let text = 'WITH ';
  for (let i = 0; i < ctes.length; i++) text += `${i ? ', ' : ''}w${i} AS (${ctes[i]})`;
  return { text: `${text} SELECT 1`, params };
}

/**
 * `text` with every `$n` as `$(n + offset)`. The texts hold identifiers and placeholders only (no
 * literals), so every `$` starts a parameter. A scan instead of a replace with a callback: a batch
 * of 64 runs renumbers hundreds of placeholders, and each match of the callback made garbage
 * (match, capture, result) that the young generation's collections had to go through.
 */
function renumber(text: string, offset: number): string {
  let out = '';
  let from = 0;
  for (let at = text.indexOf('$'); at >= 0; at = text.indexOf('$', at + 1)) {
    let end = at + 1;
    let n = 0;
    for (let d = text.charCodeAt(end); d >= 48 && d <= 57; d = text.charCodeAt(++end)) n = n * 10 + d - 48;
    out += `${text.slice(from, at)}$${n + offset}`;
    from = end;
  }
  return from ? out + text.slice(from) : text;
}

/** Runs a statement on drizzle's session (the driver's own parameter handling, as db.execute). */
export async function executeRaw(db: Db, q: RawSql): Promise<void> {
  await db._.session.prepareQuery({ sql: q.text, params: q.params }, undefined, undefined, false).execute();
}
