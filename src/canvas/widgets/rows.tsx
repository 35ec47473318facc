import { ArrowDown, ArrowUp, Plus, Trash2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { defOf, objectShape, optionsOf, unwrap } from '../../../schemas/ui';
import type { WidgetRenderProps } from '../../kit/schema-form';
import { Button } from '../../ui/button';
import { cn } from '../../ui/cn';
import { Select } from '../../ui/select';
import s from './widgets.module.css';

type AnySchema = Parameters<typeof unwrap>[0];

/**
 * The list editor the row widgets share: one row per item with a remove button (and move buttons
 * when the order matters), an add button, and an empty line.
 */
export interface RowListProps<T> {
  value: readonly T[];
  onChange(next: T[]): void;
  /** A new item (ids generated here when the row needs one). */
  newRow(current: readonly T[]): T;
  renderRow(row: T, update: (patch: Partial<T>) => void, index: number): ReactNode;
  addLabel: string;
  /** Shows up/down buttons. */
  reorder?: boolean;
  /** The schema's maximum length. */
  max?: number;
  /** At least this many rows stay (no remove below it). */
  min?: number;
  readOnly?: boolean;
  /** Indexes of rows with a checklist issue (marked red). */
  invalidRows?: ReadonlySet<number>;
  /** The label of the field, for screen readers (`aria-label` of the list). */
  label?: string;
  id?: string;
  /** Focus left a row's control (the inspector ends the field's typing step). */
  onBlur?: () => void;
}

export function RowList<T>({ value, onChange, newRow, renderRow, addLabel, reorder, max, min = 0, readOnly, invalidRows, label, id, onBlur }: RowListProps<T>) {
  const { t } = useTranslation('inspector');
  const rows = Array.isArray(value) ? value : [];
  const set = (i: number, patch: Partial<T>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const remove = (i: number) => onChange(rows.filter((_, j) => j !== i));
  const move = (i: number, d: number) => {
    const next = [...rows];
    [next[i], next[i + d]] = [next[i + d], next[i]];
    onChange(next);
  };
  return (
    <div className={s.rows} data-slot="row-list" id={id} role="group" aria-label={label} onBlur={onBlur}>
      {rows.length === 0 && <p className={s.muted}>{t('rows.empty')}</p>}
      {rows.map((row, i) => (
        <div key={i} className={cn(s.row, invalidRows?.has(i) && s.rowInvalid)} data-row={i}>
          <div className={s.rowBody}>{renderRow(row, (patch) => set(i, patch), i)}</div>
          {!readOnly && (
            <div className={s.rowActions}>
              {reorder && (
                <>
                  <Button size="sm" variant="ghost" iconOnly aria-label={t('rows.moveUp', { index: i + 1 })} disabled={i === 0} onClick={() => move(i, -1)}>
                    <ArrowUp aria-hidden="true" />
                  </Button>
                  <Button size="sm" variant="ghost" iconOnly aria-label={t('rows.moveDown', { index: i + 1 })} disabled={i === rows.length - 1} onClick={() => move(i, 1)}>
                    <ArrowDown aria-hidden="true" />
                  </Button>
                </>
              )}
              <Button size="sm" variant="ghost" iconOnly aria-label={t('rows.remove', { index: i + 1 })} disabled={rows.length <= min} onClick={() => remove(i)}>
                <Trash2 aria-hidden="true" />
              </Button>
            </div>
          )}
        </div>
      ))}
      {!readOnly && (max === undefined || rows.length < max) && (
        <Button size="sm" variant="ghost" className={s.addButton} onClick={() => onChange([...rows, newRow(rows)])}>
          <Plus aria-hidden="true" />
          {addLabel}
        </Button>
      )}
    </div>
  );
}

// ------------------------------------------------------------------ reading the field's schema

/** The shape of the objects in an array field (`z.array(z.object({...}))`), or {}. */
export function elementShape(field: WidgetRenderProps['field']): Record<string, AnySchema> {
  const el = defOf(unwrap(field.schema).schema).element;
  return (el && objectShape(el)) ?? {};
}

/** The array field's element schema. */
export function elementSchema(field: WidgetRenderProps['field']): AnySchema | undefined {
  return defOf(unwrap(field.schema).schema).element;
}

/** The maximum length of an array field. */
export const maxOf = (field: WidgetRenderProps['field']) => field.checks.maxLength;
export const minOf = (field: WidgetRenderProps['field']) => field.checks.minLength;

/**
 * Choices of an enum field inside a row, labelled: by the field's `optionLabels` when it has them,
 * else by `${prefix}.${value}` when that key translates, else the value itself.
 */
export function enumChoices(schema: AnySchema | undefined, tk: WidgetRenderProps['tk'], prefix?: string): { value: string; label: string }[] {
  if (!schema) return [];
  const meta = unwrap(schema).meta;
  return (optionsOf(unwrap(schema).schema, meta) ?? []).map((o) => {
    if (meta.optionLabels || meta.options) return { value: o.value, label: tk(o.label) };
    const key = prefix ? `${prefix}.${o.value}` : undefined;
    const text = key ? tk(key) : o.value;
    return { value: o.value, label: text === key ? o.value : text };
  });
}

/** The default value of a row field as the schema gives it. */
export const defaultOf = (schema: AnySchema | undefined): unknown => (schema ? unwrap(schema).defaultValue : undefined);

/** Rows of an array field with a checklist issue (`path: [field, index, …]`). */
export function rowsWithIssues(issues: readonly { path?: (string | number)[] }[], field: string): Set<number> {
  const out = new Set<number>();
  for (const i of issues) if (i.path?.[0] === field && typeof i.path[1] === 'number') out.add(i.path[1]);
  return out;
}

export interface RowSelectProps {
  value: string;
  onChange(value: string): void;
  options: readonly { value: string; label: string }[];
  disabled?: boolean;
  'aria-label': string;
  className?: string;
}

/**
 * The kit's Select, compact, for rows and inspector fields (issue 27: no native dropdowns in the canvas).
 * Radix reserves '' for "no value", so an option with value '' becomes the placeholder shown while
 * nothing is chosen instead of an item.
 */
export function RowSelect({ value, onChange, options, disabled, className, ...aria }: RowSelectProps) {
  const blank = options.find((o) => o.value === '');
  return (
    <Select
      size="sm"
      className={className}
      value={value}
      disabled={disabled}
      onValueChange={onChange}
      placeholder={blank?.label}
      options={options.filter((o) => o.value !== '')}
      {...aria}
    />
  );
}
