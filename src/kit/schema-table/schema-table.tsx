import { flexRender, getCoreRowModel, useReactTable, type ColumnDef, type Row } from '@tanstack/react-table';
import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react';
import { useMemo, useState, type ComponentProps, type ReactNode } from 'react';
import { TableVirtuoso, type TableComponents } from 'react-virtuoso';
import type { z } from 'zod';
import { Button } from '../../ui/button';
import { cn } from '../../ui/cn';
import { ConfirmDialog, type ConfirmOptions } from '../../ui/confirm-dialog';
import { EmptyState } from '../../ui/empty-state';
import { Pagination } from '../../ui/pagination';
import { Skeleton } from '../../ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../ui/table';
import { Tooltip } from '../../ui/tooltip';
import { useKitT, type Namespaces } from '../i18n';
import { StatusBadge } from '../widgets/status-badge';
import { valueLabel } from '../schema/value-label';
import { buildColumns, cellText, type BuildColumnsOptions, type ColumnSpec } from './columns';
import { ariaSort, nextSort, PAGE_SIZES, showPager, type SortState } from './pager';
import s from './schema-table.module.css';
// The virtual table renders its own <table>: it takes the primitive's look (stripes, hover, sizes).
import tableStyles from '../../ui/table.module.css';

/** A button at the end of each row. */
export interface RowAction<R> {
  id: string;
  /** Translated label. */
  label: string | ((row: R) => string);
  icon?: ReactNode;
  danger?: boolean;
  hidden?: (row: R) => boolean;
  disabled?: (row: R) => boolean;
  /** Ask before running (destructive actions); the dialog stays open until `run` settles. */
  confirm?: (row: R) => ConfirmOptions;
  run: (row: R) => unknown;
}

/** What a custom cell renderer gets. */
export interface CellContext<R> {
  row: R;
  value: unknown;
  column: ColumnSpec;
  /** The kit's text of the value (option labels, dates, dashes). */
  text: string;
}

export interface SchemaTableProps<R> extends BuildColumnsOptions {
  /** The row schema (an object with UI metadata). */
  schema: z.core.$ZodType;
  /** The rows; null while the first page loads (skeleton rows). */
  rows: readonly R[] | null;
  /** i18n namespaces of the metadata keys (see kit/i18n). */
  ns?: Namespaces;
  rowKey?: (row: R) => string;
  /** Custom cells by column id. */
  cells?: Readonly<Record<string, (ctx: CellContext<R>) => ReactNode>>;
  actions?: readonly RowAction<R>[];
  /** Server paging: without `onPageChange` there is no pager. */
  total?: number;
  page?: number;
  pageSize?: number;
  pageSizes?: readonly number[];
  onPageChange?: (page: number) => void;
  onPageSizeChange?: (pageSize: number) => void;
  /** Server sorting of `sortable` columns. */
  sort?: SortState | null;
  onSortChange?: (sort: SortState | null) => void;
  /** The empty state's title (default 'No data') and action. */
  emptyText?: ReactNode;
  emptyAction?: ReactNode;
  /** The last load failed: an error state with a retry button. */
  error?: boolean;
  onRetry?: () => void;
  /** A reload is running (rows stay, dimmed). */
  busy?: boolean;
  /** Long lists: render only the visible rows (react-virtuoso) in a box this tall (default 480 px). */
  virtual?: boolean | { height: number };
  /** Extra props per row (test ids, classes). */
  rowProps?: (row: R) => ComponentProps<'tr'> & Record<`data-${string}`, string>;
  className?: string;
  'data-testid'?: string;
}

const SKELETON_ROWS = 5;

interface VirtualContext<R> {
  rowProps?: (row: R) => ComponentProps<'tr'>;
}

// Module-level so react-virtuoso keeps its elements across renders (inline components remount).
const VIRTUAL_COMPONENTS: TableComponents<Row<object>, VirtualContext<object>> = {
  Table: ({ context: _c, ...p }) => <table {...p} data-slot="table" data-size="sm" data-striped className={cn(tableStyles.table, s.virtualTable)} />,
  TableHead: ({ context: _c, ...p }) => <TableHeader {...p} />,
  TableBody: ({ context: _c, ...p }) => <TableBody {...p} />,
  TableRow: ({ item, context, ...p }) => <TableRow {...p} {...context?.rowProps?.(item.original)} />,
};

/**
 * A data table built from a row schema: columns from the fields' `column` hints (schemas/ui.ts),
 * labels and enum values translated, status badges with their tooltip, row actions with an optional
 * confirmation, skeleton, empty and error states, and the spec 9 pager (20 a page; total, previous,
 * pages, next, sizes, jump; 80 px of room below). Paging and sorting are the server's: the screen
 * keeps the state. `virtual` renders long lists with react-virtuoso.
 * @example
 * <SchemaTable schema={Credential} ns="credential" rows={page?.items ?? null} total={page?.total}
 *   page={q.page} pageSize={q.page_size} onPageChange={(page) => setQ({ ...q, page })}
 *   actions={[{ id: 'delete', label: t('delete'), danger: true, confirm: (r) => ({ title: t('deleteTitle') }), run: (r) => remove(r.id) }]} />
 */
export function SchemaTable<R extends object>(props: SchemaTableProps<R>) {
  const { schema, rows, ns, cells, actions, include, exclude, overrides, columns: hints, sort = null, onSortChange, rowKey, rowProps } = props;
  const { t, tk } = useKitT(ns);
  const [asking, setAsking] = useState<{ action: RowAction<R>; row: R; options: ConfirmOptions } | null>(null);
  const [confirmOpen, setConfirmOpen] = useState(false);
  const hintsKey = JSON.stringify([include, exclude, overrides, hints]);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const specs = useMemo(() => buildColumns(schema, { include, exclude, overrides, columns: hints }), [schema, hintsKey]);

  const runAction = (action: RowAction<R>, row: R) => {
    if (action.confirm) {
      setAsking({ action, row, options: action.confirm(row) });
      setConfirmOpen(true);
    } else void Promise.resolve(action.run(row)).catch(() => {});
  };

  const defs = useMemo<ColumnDef<R>[]>(() => {
    const out: ColumnDef<R>[] = specs.map((c) => ({
      id: c.id,
      accessorFn: (row: R) => (row as Record<string, unknown>)[c.id],
      header: () => tk(c.header),
      enableSorting: c.sortable && !!onSortChange,
      size: c.width,
      cell: ({ row }) => renderCell(c, row.original),
    }));
    if (actions?.length) {
      out.push({
        id: '_actions',
        header: () => t('table.actions'),
        cell: ({ row }) => (
          <span className={s.actions}>
            {actions
              .filter((a) => !a.hidden?.(row.original))
              .map((a) => (
                <Button
                  key={a.id}
                  size="sm"
                  variant="ghost"
                  className={a.danger ? s.danger : undefined}
                  icon={a.icon}
                  disabled={a.disabled?.(row.original)}
                  data-action={a.id}
                  onClick={() => runAction(a, row.original)}
                >
                  {typeof a.label === 'function' ? a.label(row.original) : a.label}
                </Button>
              ))}
          </span>
        ),
      });
    }
    return out;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [specs, actions, cells, tk, t, onSortChange]);

  function renderCell(c: ColumnSpec, row: R) {
    const record = row as Record<string, unknown>;
    const value = record[c.id];
    const text = cellText(c.field, value, tk);
    const custom = cells?.[c.id];
    if (custom) return custom({ row, value, column: c, text });
    const tip = c.tooltipField ? String(record[c.tooltipField] ?? '') : '';
    let body: ReactNode = text;
    if (c.field.widget === 'status') body = <StatusBadge value={value} label={valueLabel(tk, c.field.meta, value)} tones={c.field.meta.tones} />;
    else if (c.field.widget === 'tags' && Array.isArray(value) && value.length) {
      body = (
        <span className={s.tags}>
          {value.map((v) => (
            <span key={String(v)} className={s.tag}>
              {String(v)}
            </span>
          ))}
        </span>
      );
    }
    if (!tip) return body;
    return (
      <Tooltip content={tip}>
        <span className={s.tipTrigger} tabIndex={0}>
          {body}
        </span>
      </Tooltip>
    );
  }

  const table = useReactTable<R>({
    data: (rows ?? []) as R[],
    columns: defs,
    getCoreRowModel: getCoreRowModel(),
    getRowId: rowKey ? (r) => rowKey(r) : (r, i) => String((r as { id?: unknown }).id ?? i),
    manualSorting: true,
    manualPagination: true,
    state: { sorting: sort ? [sort] : [] },
  });

  const headers = table.getHeaderGroups()[0]?.headers ?? [];
  const colCount = headers.length;
  const pager = !!props.onPageChange && showPager(props.total, !!props.error);

  const headerRow = (
    <TableRow>
      {headers.map((h) => {
        const spec = specs.find((c) => c.id === h.id);
        const sortable = h.column.getCanSort();
        const label = flexRender(h.column.columnDef.header, h.getContext());
        return (
          <TableHead
            key={h.id}
            aria-sort={sortable ? ariaSort(sort, h.id) : undefined}
            className={cn(h.id === '_actions' && s.actionsHead, spec?.align === 'right' && s.right, spec?.align === 'center' && s.center)}
            style={{ width: spec?.width, minWidth: spec?.minWidth }}
          >
            {sortable ? (
              <button type="button" className={s.sortButton} onClick={() => onSortChange?.(nextSort(sort, h.id))}>
                {label}
                {sort?.id === h.id ? sort.desc ? <ArrowDown aria-hidden="true" /> : <ArrowUp aria-hidden="true" /> : <ArrowUpDown aria-hidden="true" className={s.sortIdle} />}
              </button>
            ) : (
              label
            )}
          </TableHead>
        );
      })}
    </TableRow>
  );

  const cellsOf = (row: Row<R>) =>
    row.getVisibleCells().map((cell) => {
      const spec = specs.find((c) => c.id === cell.column.id);
      return (
        <TableCell key={cell.id} className={cn(s.cell, spec?.align === 'right' && s.right, spec?.align === 'center' && s.center)} data-column={cell.column.id}>
          {flexRender(cell.column.columnDef.cell, cell.getContext())}
        </TableCell>
      );
    });

  const placeholder = props.error ? (
    <EmptyState
      size="sm"
      title={t('table.loadFailed')}
      action={
        props.onRetry && (
          <Button size="sm" onClick={props.onRetry}>
            {t('table.retry')}
          </Button>
        )
      }
      data-testid="schema-table-error"
    />
  ) : rows && rows.length === 0 ? (
    <EmptyState size="sm" title={props.emptyText ?? t('table.empty')} action={props.emptyAction} data-testid="schema-table-empty" />
  ) : null;

  const bodyRows = table.getRowModel().rows;
  const virtual = props.virtual && !placeholder && rows !== null;
  const height = typeof props.virtual === 'object' ? props.virtual.height : 480;

  return (
    <div data-slot="schema-table" className={cn(s.root, pager && s.withPager, props.className)} data-testid={props['data-testid']}>
      {virtual ? (
        <TableVirtuoso
          className={s.virtual}
          style={{ height }}
          data={bodyRows}
          components={VIRTUAL_COMPONENTS as unknown as TableComponents<Row<R>, VirtualContext<R>>}
          context={{ rowProps: rowProps as VirtualContext<R>['rowProps'] }}
          fixedHeaderContent={() => headerRow}
          itemContent={(_i, row) => cellsOf(row)}
          computeItemKey={(_i, row) => row.id}
        />
      ) : (
        <Table size="sm" striped aria-busy={rows === null || props.busy || undefined} wrapperClassName={props.busy ? s.busy : undefined}>
          <TableHeader>{headerRow}</TableHeader>
          <TableBody>
            {rows === null
              ? Array.from({ length: SKELETON_ROWS }, (_, i) => (
                  <TableRow key={i}>
                    {Array.from({ length: colCount }, (__, j) => (
                      <TableCell key={j}>
                        <Skeleton height={12} width={j === 0 ? 120 : 72} />
                      </TableCell>
                    ))}
                  </TableRow>
                ))
              : placeholder
                ? (
                  <TableRow className={s.placeholderRow}>
                    <TableCell colSpan={colCount}>{placeholder}</TableCell>
                  </TableRow>
                )
                : bodyRows.map((row) => (
                    <TableRow key={row.id} {...rowProps?.(row.original)}>
                      {cellsOf(row)}
                    </TableRow>
                  ))}
          </TableBody>
        </Table>
      )}
      {pager && (
        <div className={s.pager}>
          <Pagination
            page={props.page ?? 1}
            pageSize={props.pageSize ?? 20}
            total={props.total ?? 0}
            pageSizes={[...(props.pageSizes ?? PAGE_SIZES)]}
            disabled={props.busy}
            onPageChange={props.onPageChange!}
            onPageSizeChange={props.onPageSizeChange}
            labels={{
              nav: t('pagination.nav'),
              total: (total) => t('pagination.total', { total }),
              previous: t('pagination.previous'),
              next: t('pagination.next'),
              page: (page) => t('pagination.page', { page }),
              pageSize: (size) => t('pagination.pageSize', { size }),
              jump: t('pagination.jump'),
            }}
          />
        </div>
      )}
      {asking && (
        <ConfirmDialog
          open={confirmOpen}
          onOpenChange={setConfirmOpen}
          danger={asking.action.danger}
          confirmLabel={typeof asking.action.label === 'function' ? asking.action.label(asking.row) : asking.action.label}
          cancelLabel={t('form.cancel')}
          {...asking.options}
          onConfirm={() => asking.action.run(asking.row) as Promise<unknown>}
        />
      )}
    </div>
  );
}
