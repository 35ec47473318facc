import { describe, expect, it } from 'vitest';
import { columnsFor, toRows } from './grid-layout';

describe('discover rows', () => {
  it('fits as many 280 px cards with 12 px gaps as the width takes, at least one', () => {
    expect(columnsFor(0)).toBe(1);
    expect(columnsFor(390)).toBe(1);
    expect(columnsFor(571)).toBe(1);
    expect(columnsFor(572)).toBe(2);
    expect(columnsFor(1232)).toBe(4);
    expect(columnsFor(Number.NaN)).toBe(1);
  });

  it('cuts the apps into rows, the last one shorter', () => {
    expect(toRows([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(toRows([], 3)).toEqual([]);
    expect(toRows([1, 2], 0)).toEqual([[1], [2]]);
  });
});
