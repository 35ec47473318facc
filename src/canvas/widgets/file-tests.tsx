import { useTranslation } from 'react-i18next';
import type { ValueType } from '../../../schemas/flow';
import type { NodeWidgetProps } from './list-widgets';
import { keepOrFirst, operatorsFor, takesValue, operatorLabel } from './operators';
import { RowList, RowSelect } from './rows';
import { TemplateEditor } from './template-editor';
import s from './widgets.module.css';

type Row = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' ? v : '');

export interface FileTestRowsProps {
  value: readonly Row[];
  onChange(next: Row[]): void;
  /** The file properties to choose from; none: each row compares the item itself (no property select). */
  keys?: readonly string[];
  /** The type a row compares for a property ('' for the item itself): operators are narrowed to it. */
  typeOf(key: string): ValueType | undefined;
  /** Every operator of the row's schema, in the order of its `conditions.operators.o<i>` labels. */
  operators: readonly string[];
  tk: NodeWidgetProps['tk'];
  locked: boolean;
  label: string;
  addLabel?: string;
  invalidRows?: ReadonlySet<number>;
  max?: number;
  id?: string;
  onBlur?: () => void;
  /** Labels of a row's operator and value when the rows sit inside a condition (the plugin's texts). */
  rowLabels?: { operator: string; value: string };
}

/**
 * Rows `{ key, operator, value }` testing one property of a file (or the item itself): a list
 * operator's filters, and the file tests of a condition on a list of files.
 */
export function FileTestRows({ value, onChange, keys, typeOf, operators, tk, locked, label, addLabel, invalidRows, max, id, onBlur, rowLabels }: FileTestRowsProps) {
  const { t } = useTranslation('inspector');
  const keyOptions = keys?.map((k) => ({ value: k, label: tk(`fileKeys.${k}`) }));
  const opLabel = (op: string) => operatorLabel(tk, operators, op);
  return (
    <RowList
      value={value}
      onChange={onChange}
      readOnly={locked}
      invalidRows={invalidRows}
      label={label}
      max={max}
      id={id}
      onBlur={onBlur}
      addLabel={addLabel ?? t('conditions.addCondition')}
      newRow={() => {
        const key = keys ? 'name' : '';
        return { key, operator: operatorsFor(operators, typeOf(key))[0], value: '' };
      }}
      renderRow={(row, update, i) => {
        const key = str(row.key);
        const op = str(row.operator);
        const ops = operatorsFor(operators, typeOf(key));
        return (
          <>
            {keyOptions && (
              <RowSelect
                aria-label={tk('rows.fileKey', { index: i + 1 })}
                value={key}
                options={keyOptions}
                disabled={locked}
                onChange={(v) => update({ key: v, operator: keepOrFirst(op, operatorsFor(operators, typeOf(v))) })}
              />
            )}
            <RowSelect
              aria-label={rowLabels ? tk(rowLabels.operator, { index: i + 1 }) : t('conditions.operator', { index: i + 1 })}
              value={op}
              options={(ops.includes(op) ? ops : [op, ...ops]).map((o) => ({ value: o, label: opLabel(o) }))}
              disabled={locked}
              onChange={(v) => update({ operator: v })}
            />
            {takesValue(op) && (
              <TemplateEditor
                className={s.wide}
                rows={1}
                aria-label={rowLabels ? tk(rowLabels.value, { index: i + 1 }) : t('conditions.value', { index: i + 1 })}
                placeholder={t('conditions.valuePlaceholder')}
                value={str(row.value)}
                readOnly={locked}
                onChange={(v) => update({ value: v })}
              />
            )}
          </>
        );
      }}
    />
  );
}
