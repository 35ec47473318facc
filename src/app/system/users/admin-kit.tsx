/**
 * Small pieces the system screens (users, tenants, organisations) share: loading a list, reporting a
 * failure once, dates, the pager labels, the no-permission state, and a zodResolver whose messages
 * are translated (spec 5).
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { CircleAlert, ShieldAlert } from 'lucide-react';
import { useCallback, useEffect, useRef, useState, type DependencyList, type ReactNode } from 'react';
import type { FieldError, FieldValues, Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { describeError, wasReported } from '../../../api/reactions';
import { isAbortError } from '../../../api/request';
import { Button } from '../../../ui/button';
import { EmptyState } from '../../../ui/empty-state';
import { Pagination, type PaginationLabels } from '../../../ui/pagination';
import { Skeleton } from '../../../ui/skeleton';
import { TableCell, TableRow } from '../../../ui/table';
import { toast } from '../../../ui/toast';

// ---------------------------------------------------------------------------------------------------
// Loading

export type Load<T> =
  | { status: 'loading'; data?: T; error?: undefined }
  | { status: 'ready'; data: T; error?: undefined }
  | { status: 'error'; data?: T; error: unknown };

/**
 * Runs `load` now and whenever `deps` change (the previous call is aborted); keeps the last data while
 * a new load runs so the table does not flash. `reload()` runs it again.
 */
export function useLoad<T>(load: (signal: AbortSignal) => Promise<T>, deps: DependencyList): Load<T> & { reload: () => void } {
  const [state, setState] = useState<Load<T>>({ status: 'loading' });
  const [nonce, setNonce] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  useEffect(() => {
    const ac = new AbortController();
    setState((s) => ({ status: 'loading', data: s.data }));
    loadRef.current(ac.signal).then(
      (data) => {
        if (!ac.signal.aborted) setState({ status: 'ready', data });
      },
      (error: unknown) => {
        if (ac.signal.aborted || isAbortError(error)) return;
        setState((s) => ({ status: 'error', error, data: s.data }));
      },
    );
    return () => ac.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, nonce]);
  const reload = useCallback(() => setNonce((n) => n + 1), []);
  return { ...state, reload };
}

/**
 * Tells the user about a failure unless the request layer already did (its toast reaction): fakes and
 * local failures still get a message.
 */
export function reportError(e: unknown): void {
  if (wasReported(e)) return;
  const m = describeError(e);
  if (m) toast.error(m.text, { description: m.detail });
}

// ---------------------------------------------------------------------------------------------------
// Display

const pad = (n: number) => String(n).padStart(2, '0');

/** `YYYY-MM-DD HH:mm` in local time; '' for an unreadable value. */
export function formatDateTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The pager's labels in the current language. */
export function usePaginationLabels(): PaginationLabels {
  const { t } = useTranslation(['system', 'common']);
  return {
    total: (count) => t('pagination.total', { count }),
    previous: t('pagination.previous'),
    next: t('pagination.next'),
    page: (page) => t('pagination.page', { page }),
    pageSize: (size) => t('pagination.pageSize', { size }),
    jump: t('pagination.jump'),
    nav: t('pagination.nav'),
  };
}

/** Room under the pager (the shell's Page padding is smaller). */
export const PAGE_STYLE = { paddingBottom: 80 } as const;

/** Default table page size (spec 9) and the sizes offered. */
export const PAGE_SIZE = 20;
export const PAGE_SIZES = [10, 20, 50, 100];

export interface ListRowsProps<T> {
  list: { status: Load<unknown>['status']; reload(): void };
  /** The loaded page's items; undefined before the first page. */
  items: T[] | undefined;
  columns: number;
  /** Placeholder rows before the first page: how many, the first cell's width and the others' (64), their class. */
  skeleton: { rows: number; first: number; rest?: number; className?: string };
  /** What an empty page shows (the filter's "no match" or the list's "empty"). */
  empty: ReactNode;
  children(items: T[]): ReactNode;
}

/** A system list's table body: the load failure (with retry), placeholders while loading, the empty state, else the rows `children` draws. */
export function ListRows<T>({ list, items, columns, skeleton, empty, children }: ListRowsProps<T>) {
  const whole = (content: ReactNode) => (
    <TableRow>
      <TableCell colSpan={columns}>{content}</TableCell>
    </TableRow>
  );
  if (!items && list.status === 'error') return whole(<LoadFailed onRetry={list.reload} />);
  if (!items) {
    return Array.from({ length: skeleton.rows }, (_, i) => (
      <TableRow key={i} className={skeleton.className}>
        {Array.from({ length: columns }, (_, j) => (
          <TableCell key={j}>
            <Skeleton width={j === 0 ? skeleton.first : (skeleton.rest ?? 64)} height={12} />
          </TableCell>
        ))}
      </TableRow>
    ));
  }
  return items.length === 0 ? whole(empty) : children(items);
}

export interface ListPagerProps {
  className?: string;
  page: number;
  pageSize: number;
  /** The list's total; no pager while it has no rows (or has not loaded). */
  total: number | undefined;
  onPage(page: number): void;
  onPageSize(size: number): void;
}

/** The pager under a system list: the admin page sizes in the current language; a new page size goes back to page 1. */
export function ListPager({ className, page, pageSize, total, onPage, onPageSize }: ListPagerProps) {
  const labels = usePaginationLabels();
  if (!total) return null;
  return (
    <Pagination
      className={className}
      page={page}
      pageSize={pageSize}
      total={total}
      pageSizes={PAGE_SIZES}
      onPageChange={onPage}
      onPageSizeChange={(n) => {
        onPageSize(n);
        onPage(1);
      }}
      labels={labels}
    />
  );
}

/** A screen the caller's role may not use. */
export function NoPermission({ description }: { description?: string }) {
  const { t } = useTranslation(['system', 'common']);
  return (
    <EmptyState
      data-testid="no-permission"
      icon={<ShieldAlert aria-hidden="true" />}
      title={t('noPermission.title')}
      description={description ?? t('noPermission.description')}
    />
  );
}

/** A list that failed to load, with a retry button. */
export function LoadFailed({ title, onRetry }: { title?: string; onRetry: () => void }) {
  const { t } = useTranslation(['system', 'common']);
  return (
    <EmptyState
      size="sm"
      role="alert"
      icon={<CircleAlert aria-hidden="true" />}
      title={title ?? t('table.loadFailed')}
      description={t('table.loadFailedHint')}
      action={
        <Button size="sm" onClick={onRetry}>
          {t('common:actions.retry')}
        </Button>
      }
    />
  );
}

// ---------------------------------------------------------------------------------------------------
// Forms

export type ValidationKey =
  | 'validation.required'
  | 'validation.passwordMismatch'
  | 'validation.email'
  | 'validation.phone'
  | 'validation.username'
  | 'validation.password'
  | 'validation.maxLength'
  | 'validation.orgName'
  | 'validation.invalid';

/** How a field's failures read: `format` for a wrong non-empty value, `max` for the length message. */
export interface FieldRule {
  format?: ValidationKey;
  max?: number;
}
export type FieldRules = Record<string, FieldRule>;

const isEmpty = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && v.length === 0);

/**
 * zodResolver over the one schema the server validates with, whose messages become `system:` i18n keys
 * (rendered by {@link useErrorText}, so they follow a language change): an empty value reads 'This form
 * field is required!', a too long one 'exceeds maximum length', anything else the field's `format`.
 */
export function translatedResolver<In extends FieldValues, Out>(schema: z.ZodType<Out, In>, rules: FieldRules): Resolver<In, unknown, Out> {
  const base = zodResolver(schema) as unknown as Resolver<In, unknown, Out>;
  return async (values, context, options) => {
    const result = await base(values, context, options);
    for (const [name, error] of Object.entries(result.errors) as [string, FieldError][]) {
      if (!error || typeof error !== 'object' || !('type' in error)) continue;
      const rule = rules[name] ?? {};
      const key: ValidationKey = isEmpty((values as Record<string, unknown>)[name])
        ? 'validation.required'
        : error.type === 'too_big'
          ? 'validation.maxLength'
          : (rule.format ?? 'validation.invalid');
      error.message = key;
    }
    return result;
  };
}

/** The translated message of a field's error (see {@link translatedResolver}). */
export function useErrorText(rules: FieldRules) {
  const { t } = useTranslation(['system', 'common']);
  return (name: string, error: FieldError | undefined): string | undefined =>
    error?.message ? t(error.message as ValidationKey, { max: rules[name]?.max ?? 64 }) : undefined;
}
