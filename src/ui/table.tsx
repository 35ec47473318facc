import type { ComponentProps } from 'react';
import { cn } from './cn';
import s from './table.module.css';

export interface TableProps extends ComponentProps<'table'> {
  /** Row density: 'sm' (36 px rows, default per spec 9) or 'md' (44 px). */
  size?: 'sm' | 'md';
  /** Zebra rows (default on per spec 9). */
  striped?: boolean;
  /** Keep the header visible while the wrapper scrolls (give the wrapper a height via `wrapperClassName`). */
  stickyHeader?: boolean;
  /** Class of the scrolling wrapper <div>; `className` goes on the <table>. */
  wrapperClassName?: string;
}

/**
 * Plain styled table parts; data tables (sorting, selection) live in src/kit.
 * @example
 * <Table><TableHeader><TableRow><TableHead>Name</TableHead></TableRow></TableHeader>
 *   <TableBody>{rows.map((r) => <TableRow key={r.id}><TableCell>{r.name}</TableCell></TableRow>)}</TableBody></Table>
 */
export function Table({ size = 'sm', striped = true, stickyHeader, wrapperClassName, className, ...props }: TableProps) {
  return (
    <div data-slot="table-wrapper" className={cn(s.wrapper, wrapperClassName)}>
      <table
        data-slot="table"
        data-size={size}
        data-striped={striped || undefined}
        data-sticky={stickyHeader || undefined}
        className={cn(s.table, className)}
        {...props}
      />
    </div>
  );
}

export function TableHeader({ className, ...props }: ComponentProps<'thead'>) {
  return <thead data-slot="table-header" className={cn(s.header, className)} {...props} />;
}

export function TableBody({ className, ...props }: ComponentProps<'tbody'>) {
  return <tbody data-slot="table-body" className={cn(s.body, className)} {...props} />;
}

export function TableFooter({ className, ...props }: ComponentProps<'tfoot'>) {
  return <tfoot data-slot="table-footer" className={cn(s.footer, className)} {...props} />;
}

export interface TableRowProps extends ComponentProps<'tr'> {
  /** Highlight as selected (sets aria-selected). */
  selected?: boolean;
}

export function TableRow({ selected, className, ...props }: TableRowProps) {
  return (
    <tr
      data-slot="table-row"
      data-selected={selected || undefined}
      aria-selected={selected}
      className={cn(s.row, className)}
      {...props}
    />
  );
}

export function TableHead({ className, scope = 'col', ...props }: ComponentProps<'th'>) {
  return <th data-slot="table-head" scope={scope} className={cn(s.head, className)} {...props} />;
}

export function TableCell({ className, ...props }: ComponentProps<'td'>) {
  return <td data-slot="table-cell" className={cn(s.cell, className)} {...props} />;
}

export function TableCaption({ className, ...props }: ComponentProps<'caption'>) {
  return <caption data-slot="table-caption" className={cn(s.caption, className)} {...props} />;
}
