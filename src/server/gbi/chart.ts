import type { GbiChart, GbiResult } from '../../../schemas/gbi';

/**
 * The chart a result's shape calls for (issue 30): one number alone is a single number; a
 * category column with value columns is a line when the category is time-like, a pie when a few
 * non-negative parts of one whole, else a bar; anything else gets no chart (the table says it).
 */
const TIME_NAME = /(date|time|day|week|month|year|quarter|period|日期|时间|月|年|季度)/i;
const TIME_TYPE = /^(date|timestamp|time)/i;
const NUMERIC_TYPE = /^(numeric|tinyint|smallint|integer|bigint|hugeint|utinyint|usmallint|uinteger|ubigint|float|double|real|decimal)/i;

export function pickChart(result: Pick<GbiResult, 'columns' | 'rows'>): GbiChart {
  const { columns, rows } = result;
  const numeric = columns.map((c, i) => NUMERIC_TYPE.test(c.data_type) || (rows.length > 0 && rows.every((r) => r[i] === null || typeof r[i] === 'number')));
  const values = columns.map((_, i) => i).filter((i) => numeric[i]);
  if (rows.length === 1 && columns.length === 1 && numeric[0]) return { kind: 'number', category: null, values: [0] };
  const category = columns.findIndex((_, i) => !numeric[i]);
  // A year or month column can be numeric (2024): take it as the category when it is the first column.
  const timeLikeFirst = columns.length > 1 && TIME_NAME.test(columns[0].name) && numeric[0];
  const cat = category >= 0 ? category : timeLikeFirst ? 0 : -1;
  const vals = values.filter((i) => i !== cat);
  if (cat < 0 || !vals.length || rows.length < 2) return { kind: 'none', category: null, values: [] };
  const timeLike = TIME_TYPE.test(columns[cat].data_type) || TIME_NAME.test(columns[cat].name);
  if (timeLike) return { kind: 'line', category: cat, values: vals };
  const parts = vals.length === 1 && rows.length <= 6 && rows.every((r) => typeof r[vals[0]] === 'number' && (r[vals[0]] as number) >= 0);
  return { kind: parts ? 'pie' : 'bar', category: cat, values: vals };
}
