import { Lock } from 'lucide-react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Checkbox } from '../../ui/checkbox';
import { Input } from '../../ui/input';
import { Select, type SelectOption } from '../../ui/select';
import { cn } from '../../ui/cn';
import type { ColumnId, DataType, LocalRow, ParamMessage, ParamScope, RowField } from './logic';
import s from './param-table.module.css';

/** Column header key: header rows call param_key "type" and data_type "data type" (spec 5). */
export function columnLabelKey(scope: ParamScope, column: ColumnId) {
  if (scope.kind === 'headers' && column === 'param_key') return 'columns.headerType' as const;
  if (scope.kind === 'headers' && column === 'data_type') return 'columns.headerDataType' as const;
  return `columns.${column}` as const;
}

const TEXT_COLUMNS = new Set<ColumnId>(['param_name', 'param_key', 'default_value', 'description', 'optional_values', 'param_value']);
const BOOL_COLUMNS = new Set<ColumnId>(['is_array', 'is_not_null']);

export const isBoolColumn = (column: ColumnId) => BOOL_COLUMNS.has(column);

export interface CellProps {
  scope: ParamScope;
  row: LocalRow;
  column: ColumnId;
  /** The field cannot be changed (spec 4 locks). */
  locked: boolean;
  lockHint?: string;
  /** The message to show under the control, if any. */
  error?: ParamMessage;
  readOnly: boolean;
  typeOptions: readonly DataType[];
  onPatch: (patch: Partial<Pick<LocalRow, RowField>>) => void;
}

/** One editable (or read-only) cell of a parameter row. */
export function ParamCell({ scope, row, column, locked, lockHint, error, readOnly, typeOptions, onPatch }: CellProps) {
  const { t } = useTranslation('param');
  const errorId = useId();
  const label = t(columnLabelKey(scope, column));
  const message = error ? t(error.key, { key: error.params?.key ?? '', type: error.params?.type ?? '' }) : undefined;
  const describedBy = message ? errorId : undefined;
  const errorText = message ? (
    <p id={errorId} data-slot="param-error" className={s.error}>
      {message}
    </p>
  ) : null;

  if (BOOL_COLUMNS.has(column)) {
    const field = column as 'is_array' | 'is_not_null';
    return (
      <div className={s.boolCell}>
        <Checkbox
          aria-label={label}
          checked={row[field]}
          disabled={readOnly}
          onCheckedChange={(checked) => onPatch({ [field]: checked === true })}
        />
      </div>
    );
  }

  if (column === 'data_type') {
    if (readOnly) {
      return (
        <div className={s.control}>
          <span className={cn(s.text, s.typeText)}>
            {row.data_type ? t(`dataTypes.${row.data_type}`) : '—'}
            {row.is_array && row.data_type ? '[]' : ''}
          </span>
          {errorText}
        </div>
      );
    }
    const options: SelectOption[] = typeOptions.map((type) => ({ value: type, label: t(`dataTypes.${type}`) }));
    // A loaded type this location does not allow still shows (with its error) until it is changed.
    if (row.data_type && !typeOptions.includes(row.data_type)) {
      options.push({ value: row.data_type, label: t(`dataTypes.${row.data_type}`), disabled: true });
    }
    return (
      <div className={s.control} title={locked ? lockHint : undefined}>
        <Select
          size="sm"
          className={s.select}
          aria-label={label}
          aria-describedby={describedBy}
          invalid={!!message}
          disabled={locked}
          placeholder={t('placeholders.data_type')}
          value={row.data_type || undefined}
          onValueChange={(v) => onPatch({ data_type: v as DataType })}
          options={options}
        />
        {errorText}
      </div>
    );
  }

  if (column === 'request_type') {
    const value = row.request_type === 'query_path' ? 'query_path' : 'query_params';
    if (readOnly) return <span className={s.text}>{t(`requestTypes.${value}`)}</span>;
    return (
      <Select
        size="sm"
        className={s.select}
        aria-label={label}
        value={value}
        onValueChange={(v) => onPatch({ request_type: v as 'query_params' | 'query_path' })}
        options={[
          { value: 'query_params', label: t('requestTypes.query_params') },
          { value: 'query_path', label: t('requestTypes.query_path') },
        ]}
      />
    );
  }

  if (TEXT_COLUMNS.has(column)) {
    const field = column as 'param_name' | 'param_key' | 'default_value' | 'description' | 'optional_values' | 'param_value';
    const value = row[field];
    if (readOnly) {
      return (
        <div className={s.control}>
          <span className={cn(s.text, !value && s.muted)} title={value || undefined}>
            {value || '—'}
          </span>
          {errorText}
        </div>
      );
    }
    const placeholderKey = scope.kind === 'headers' && field === 'param_key' ? 'placeholders.headerType' : (`placeholders.${field}` as const);
    return (
      <div className={s.control} title={locked ? lockHint : undefined}>
        <Input
          size="sm"
          aria-label={label}
          aria-describedby={describedBy}
          invalid={!!message}
          disabled={locked}
          placeholder={t(placeholderKey)}
          value={value}
          spellCheck={false}
          suffix={locked ? <span className={s.lock}><Lock aria-hidden="true" /></span> : undefined}
          onChange={(e) => onPatch({ [field]: e.target.value })}
        />
        {errorText}
      </div>
    );
  }
  return null;
}
