/**
 * Paging and sorting state of a schema table (spec 9: 20 rows a page; pager with total, previous,
 * jump, next and sizes). Pure; the screen keeps the state and sends it to the server.
 */

/** Spec 9: data tables show 20 rows a page. */
export const DEFAULT_PAGE_SIZE = 20;
/** The sizes the pager offers. */
export const PAGE_SIZES: readonly number[] = [10, 20, 50, 100];

export interface PageState {
  page: number;
  pageSize: number;
}

/** Number of pages for a total (at least 1). */
export const pageCount = (total: number, pageSize: number) => Math.max(1, Math.ceil(Math.max(0, total) / Math.max(1, pageSize)));

/** A page number kept within 1..pageCount. */
export const clampPage = (page: number, total: number, pageSize: number) => Math.min(pageCount(total, pageSize), Math.max(1, Math.floor(page) || 1));

/**
 * Whether an answer asks for another page: the page came back empty while rows exist (the last row
 * of the last page went away, or the total shrank). Returns the page to load, or null.
 */
export function pageToReload(state: PageState, answer: { items: readonly unknown[]; total: number }): number | null {
  if (answer.items.length > 0 || answer.total === 0 || state.page <= 1) return null;
  const last = pageCount(answer.total, state.pageSize);
  return last < state.page ? last : null;
}

/** A new page size starts again at page 1 (the rows before would no longer line up). */
export const withPageSize = <S extends PageState>(state: S, pageSize: number): S => ({ ...state, pageSize, page: 1 });

/** The server's sort: one column, ascending or descending. */
export interface SortState {
  id: string;
  desc: boolean;
}

/** Clicking a sortable header: none → ascending → descending → none (another column starts ascending). */
export function nextSort(current: SortState | null, id: string): SortState | null {
  if (!current || current.id !== id) return { id, desc: false };
  if (!current.desc) return { id, desc: true };
  return null;
}

/** `aria-sort` of a header. */
export function ariaSort(current: SortState | null, id: string): 'ascending' | 'descending' | 'none' {
  if (!current || current.id !== id) return 'none';
  return current.desc ? 'descending' : 'ascending';
}

/** Whether the pager shows: there are rows, and no error. */
export const showPager = (total: number | undefined, failed: boolean) => !failed && (total ?? 0) > 0;
