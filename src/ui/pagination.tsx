import { ChevronLeft, ChevronRight, Ellipsis } from 'lucide-react';
import { useState, type ComponentProps, type ReactNode } from 'react';
import { cn } from './cn';
import { Select } from './select';
import s from './pagination.module.css';

export interface PaginationLabels {
  total: (total: number) => ReactNode;
  previous: string;
  next: string;
  page: (page: number) => string;
  pageSize: (size: number) => string;
  jump: ReactNode;
  /** Accessible name of the whole <nav>. */
  nav: string;
}

export const defaultPaginationLabels: PaginationLabels = {
  total: (n) => `Total ${n}`,
  previous: 'Previous page',
  next: 'Next page',
  page: (p) => `Page ${p}`,
  pageSize: (n) => `${n} / page`,
  jump: 'Go to',
  nav: 'Pagination',
};

/** Pages to show: all when few, else first, last and a window around the current page. */
export function pageItems(page: number, pageCount: number, window = 1): Array<number | 'gap-start' | 'gap-end'> {
  if (pageCount <= 5 + window * 2) return Array.from({ length: pageCount }, (_, i) => i + 1);
  // Same slot count whatever the page: 1, (2 | gap), siblings, (n-1 | gap), n.
  const start = Math.max(Math.min(page - window, pageCount - 2 * window - 2), 3);
  const end = Math.min(Math.max(page + window, 2 * window + 3), pageCount - 2);
  const mid = Array.from({ length: end - start + 1 }, (_, i) => start + i);
  return [1, start > 3 ? 'gap-start' : 2, ...mid, end < pageCount - 2 ? 'gap-end' : pageCount - 1, pageCount];
}

export interface PaginationProps extends Omit<ComponentProps<'nav'>, 'onChange'> {
  page: number;
  pageSize: number;
  total: number;
  onPageChange: (page: number) => void;
  /** Without it the size picker is hidden. The caller usually resets to page 1. */
  onPageSizeChange?: (pageSize: number) => void;
  pageSizes?: number[];
  /** Show the "go to page" box. Default true. */
  showJump?: boolean;
  disabled?: boolean;
  /** Translated labels; English defaults. */
  labels?: Partial<PaginationLabels>;
}

/**
 * Spec 9 pager: total, previous, pages, next, sizes, jump. Controlled.
 * @example <Pagination page={q.page} pageSize={q.page_size} total={data.total} onPageChange={setPage} onPageSizeChange={setSize} />
 */
export function Pagination({
  page,
  pageSize,
  total,
  onPageChange,
  onPageSizeChange,
  pageSizes = [10, 20, 50, 100],
  showJump = true,
  disabled,
  labels: custom,
  className,
  ...props
}: PaginationProps) {
  const l = { ...defaultPaginationLabels, ...custom };
  const pageCount = Math.max(1, Math.ceil(total / Math.max(1, pageSize)));
  const [jump, setJump] = useState('');
  const go = (p: number) => {
    const next = Math.min(pageCount, Math.max(1, p));
    if (next !== page) onPageChange(next);
  };
  return (
    <nav data-slot="pagination" aria-label={l.nav} className={cn(s.root, className)} {...props}>
      <span className={s.total}>{l.total(total)}</span>
      <button type="button" className={s.item} aria-label={l.previous} disabled={disabled || page <= 1} onClick={() => go(page - 1)}>
        <ChevronLeft aria-hidden="true" />
      </button>
      {pageItems(page, pageCount).map((p) =>
        typeof p === 'number' ? (
          <button
            key={p}
            type="button"
            className={s.item}
            aria-label={l.page(p)}
            aria-current={p === page ? 'page' : undefined}
            disabled={disabled}
            onClick={() => go(p)}
          >
            {p}
          </button>
        ) : (
          <span key={p} className={s.gap} aria-hidden="true">
            <Ellipsis />
          </span>
        ),
      )}
      <button type="button" className={s.item} aria-label={l.next} disabled={disabled || page >= pageCount} onClick={() => go(page + 1)}>
        <ChevronRight aria-hidden="true" />
      </button>
      {onPageSizeChange && (
        <Select
          size="sm"
          className={s.sizes}
          disabled={disabled}
          value={String(pageSize)}
          onValueChange={(v) => onPageSizeChange(Number(v))}
          options={pageSizes.map((n) => ({ value: String(n), label: l.pageSize(n) }))}
          aria-label={l.pageSize(pageSize)}
        />
      )}
      {showJump && pageCount > 1 && (
        <label className={s.jump}>
          {l.jump}
          <input
            className={s.jumpInput}
            inputMode="numeric"
            value={jump}
            disabled={disabled}
            onChange={(e) => setJump(e.target.value.replace(/\D/g, ''))}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && jump) {
                go(Number(jump));
                setJump('');
              }
            }}
          />
        </label>
      )}
    </nav>
  );
}
