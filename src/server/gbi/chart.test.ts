import { describe, expect, it } from 'vitest';
import { pickChart } from './chart';

const col = (name: string, data_type: string) => ({ name, data_type });

describe('GBI chart from the result shape', () => {
  it('one number, a time series, parts of a whole, categories, nothing to draw', () => {
    expect(pickChart({ columns: [col('total', 'BIGINT')], rows: [[42]] }).kind).toBe('number');
    expect(pickChart({ columns: [col('month', 'DATE'), col('amount', 'DOUBLE')], rows: [['2024-01-01', 1], ['2024-02-01', 2]] })).toEqual({ kind: 'line', category: 0, values: [1] });
    expect(pickChart({ columns: [col('region', 'VARCHAR'), col('amount', 'DOUBLE')], rows: [['north', 1], ['south', 2]] }).kind).toBe('pie');
    const many = Array.from({ length: 8 }, (_, i) => [`r${i}`, i * 10]);
    expect(pickChart({ columns: [col('region', 'VARCHAR'), col('amount', 'DOUBLE')], rows: many })).toEqual({ kind: 'bar', category: 0, values: [1] });
    expect(pickChart({ columns: [col('year', 'INTEGER'), col('amount', 'DOUBLE')], rows: [[2023, 1], [2024, 2]] }).kind).toBe('line');
    expect(pickChart({ columns: [col('name', 'VARCHAR'), col('city', 'VARCHAR')], rows: [['a', 'b'], ['c', 'd']] }).kind).toBe('none');
  });
});
