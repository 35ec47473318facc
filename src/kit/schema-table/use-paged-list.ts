import { useCallback, useEffect, useRef, useState } from 'react';
import { DEFAULT_PAGE_SIZE, pageToReload } from './pager';

export interface PagedAnswer<R> {
  items: R[];
  total: number;
}

export interface PagedList<R, F> {
  /** Rows of the page; null until the first answer. */
  rows: R[] | null;
  total: number;
  status: 'loading' | 'ready' | 'error';
  page: number;
  pageSize: number;
  filters: F;
  setPage: (page: number) => void;
  setPageSize: (pageSize: number) => void;
  /** Merges filters and goes back to page 1. */
  setFilters: (next: Partial<F>) => void;
  /** Loads the page again (after a change). */
  reload: () => void;
  /** Replaces one row in place (an answer of a row action). */
  replaceRow: (match: (row: R) => boolean, next: R) => void;
}

/**
 * The state of a server-paged list for a SchemaTable: page, size (20 by default, spec 9), filters,
 * loading and error status. Answers that arrive out of order are dropped; a page left empty by a
 * delete falls back to the last page.
 * @example
 * const list = usePagedList((q) => api.list(workspaceId, q), { name: '' }, [workspaceId]);
 * <SchemaTable rows={list.rows} total={list.total} page={list.page} pageSize={list.pageSize} onPageChange={list.setPage} … />
 */
export function usePagedList<R, F extends Record<string, unknown>>(
  load: (q: F & { page: number; page_size: number }) => Promise<PagedAnswer<R>>,
  initialFilters: F,
  deps: readonly unknown[],
  onError?: (e: unknown) => void,
): PagedList<R, F> {
  const [query, setQuery] = useState({ page: 1, pageSize: DEFAULT_PAGE_SIZE, filters: initialFilters });
  const [answer, setAnswer] = useState<PagedAnswer<R> | null>(null);
  const [status, setStatus] = useState<'loading' | 'ready' | 'error'>('loading');
  const [nonce, setNonce] = useState(0);
  const seq = useRef(0);
  const latestLoad = useRef(load);
  latestLoad.current = load;
  const latestError = useRef(onError);
  latestError.current = onError;

  useEffect(() => {
    const mine = ++seq.current;
    setStatus('loading');
    latestLoad
      .current({ ...query.filters, page: query.page, page_size: query.pageSize })
      .then(
        (a) => {
          if (mine !== seq.current) return;
          const back = pageToReload({ page: query.page, pageSize: query.pageSize }, a);
          if (back !== null) return setQuery((q) => ({ ...q, page: back }));
          setAnswer(a);
          setStatus('ready');
        },
        (e: unknown) => {
          if (mine !== seq.current) return;
          setStatus('error');
          latestError.current?.(e);
        },
      );
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [query, nonce, ...deps]);

  return {
    rows: answer?.items ?? null,
    total: answer?.total ?? 0,
    status,
    page: query.page,
    pageSize: query.pageSize,
    filters: query.filters,
    setPage: useCallback((page: number) => setQuery((q) => ({ ...q, page })), []),
    setPageSize: useCallback((pageSize: number) => setQuery((q) => ({ ...q, pageSize, page: 1 })), []),
    setFilters: useCallback((next: Partial<F>) => setQuery((q) => ({ ...q, page: 1, filters: { ...q.filters, ...next } })), []),
    reload: useCallback(() => setNonce((n) => n + 1), []),
    replaceRow: useCallback(
      (match: (row: R) => boolean, next: R) => setAnswer((a) => (a ? { ...a, items: a.items.map((r) => (match(r) ? next : r)) } : a)),
      [],
    ),
  };
}
