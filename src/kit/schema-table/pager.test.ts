import { describe, expect, it } from 'vitest';
import { ariaSort, clampPage, DEFAULT_PAGE_SIZE, nextSort, PAGE_SIZES, pageCount, pageToReload, showPager, withPageSize } from './pager';

describe('pager', () => {
  it('defaults to 20 rows a page (spec 9) and offers it among the sizes', () => {
    expect(DEFAULT_PAGE_SIZE).toBe(20);
    expect(PAGE_SIZES).toContain(20);
  });

  it('counts pages, at least one', () => {
    expect(pageCount(0, 20)).toBe(1);
    expect(pageCount(20, 20)).toBe(1);
    expect(pageCount(21, 20)).toBe(2);
    expect(pageCount(61, 20)).toBe(4);
  });

  it('clamps a page into range', () => {
    expect(clampPage(0, 50, 20)).toBe(1);
    expect(clampPage(9, 50, 20)).toBe(3);
    expect(clampPage(2, 50, 20)).toBe(2);
  });

  it('goes back a page when the last row of the last page went away', () => {
    expect(pageToReload({ page: 3, pageSize: 20 }, { items: [], total: 40 })).toBe(2);
    expect(pageToReload({ page: 3, pageSize: 20 }, { items: [{}], total: 41 })).toBeNull();
    expect(pageToReload({ page: 1, pageSize: 20 }, { items: [], total: 0 })).toBeNull();
    expect(pageToReload({ page: 2, pageSize: 20 }, { items: [], total: 0 })).toBeNull();
  });

  it('starts at page 1 after a size change', () => {
    expect(withPageSize({ page: 4, pageSize: 20, name: 'x' }, 50)).toEqual({ page: 1, pageSize: 50, name: 'x' });
  });

  it('cycles a header through ascending, descending and none', () => {
    const a = nextSort(null, 'name');
    expect(a).toEqual({ id: 'name', desc: false });
    const d = nextSort(a, 'name');
    expect(d).toEqual({ id: 'name', desc: true });
    expect(nextSort(d, 'name')).toBeNull();
    expect(nextSort(d, 'port')).toEqual({ id: 'port', desc: false });
    expect(ariaSort(d, 'name')).toBe('descending');
    expect(ariaSort(d, 'port')).toBe('none');
  });

  it('shows the pager only with rows and no error', () => {
    expect(showPager(3, false)).toBe(true);
    expect(showPager(0, false)).toBe(false);
    expect(showPager(3, true)).toBe(false);
    expect(showPager(undefined, false)).toBe(false);
  });
});
