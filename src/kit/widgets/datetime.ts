/** Date and time formatting for display and for `<input type="datetime-local">`. Pure. */

export type DateInput = string | number | Date | null | undefined;

const pad = (n: number) => String(n).padStart(2, '0');

export function toDate(v: DateInput): Date | null {
  if (v === null || v === undefined || v === '') return null;
  const d = v instanceof Date ? v : new Date(v);
  return Number.isNaN(d.getTime()) ? null : d;
}

/**
 * Local time as 'YYYY-MM-DD HH:mm:ss' (the product's table format); `withSeconds: false` drops
 * the seconds, `dateOnly` keeps the date. Null for an empty or invalid value.
 * @example formatDateTime('2024-05-01T08:09:10Z') // '2024-05-01 16:09:10' in UTC+8
 */
export function formatDateTime(v: DateInput, opts: { withSeconds?: boolean; dateOnly?: boolean } = {}): string | null {
  const d = toDate(v);
  if (!d) return null;
  const date = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  if (opts.dateOnly) return date;
  const time = `${pad(d.getHours())}:${pad(d.getMinutes())}${opts.withSeconds === false ? '' : `:${pad(d.getSeconds())}`}`;
  return `${date} ${time}`;
}

/** An ISO time → the value of a datetime-local input ('YYYY-MM-DDTHH:mm'). */
export function toLocalInput(v: DateInput): string {
  const d = toDate(v);
  if (!d) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A datetime-local value → ISO time (UTC); '' → undefined. */
export function fromLocalInput(v: string): string | undefined {
  if (!v) return undefined;
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}
