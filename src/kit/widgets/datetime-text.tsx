import { useTranslation } from 'react-i18next';
import { Input } from '../../ui/input';
import { formatDateTime, fromLocalInput, toDate, toLocalInput, type DateInput } from './datetime';
import { ariaOf, isInvalid, type WidgetValueProps } from './types';
import s from './widgets.module.css';

export interface DateTimeTextProps {
  value: DateInput;
  withSeconds?: boolean;
  dateOnly?: boolean;
  className?: string;
}

/**
 * A time as local 'YYYY-MM-DD HH:mm:ss' in a <time> element (ISO in `dateTime` and the tooltip);
 * '—' when empty.
 * @example <DateTimeText value={row.created_at} />
 */
export function DateTimeText({ value, withSeconds, dateOnly, className }: DateTimeTextProps) {
  const { t } = useTranslation('kit');
  const d = toDate(value);
  if (!d) return <span className={className ?? s.muted}>{value ? t('datetime.invalid') : t('values.empty')}</span>;
  return (
    <time dateTime={d.toISOString()} title={d.toISOString()} className={className ?? s.datetime}>
      {formatDateTime(d, { withSeconds, dateOnly })}
    </time>
  );
}

export type DateTimeInputProps = WidgetValueProps<string | undefined | null>;

/** An editable time (browser datetime-local box) holding an ISO string. */
export function DateTimeInput({ value, onChange, onBlur, disabled, readOnly, className, ...rest }: DateTimeInputProps) {
  return (
    <Input
      {...ariaOf(rest)}
      type="datetime-local"
      className={className}
      invalid={isInvalid(rest)}
      value={toLocalInput(value)}
      disabled={disabled}
      readOnly={readOnly}
      onChange={(e) => onChange(fromLocalInput(e.target.value))}
      onBlur={onBlur}
    />
  );
}
