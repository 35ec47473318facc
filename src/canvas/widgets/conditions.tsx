import { Plus, Trash2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { enumValues } from '../../../schemas/ui';
import { elementType, isArrayType, type ValueType } from '../../../schemas/flow';
import { FILE_LIST_TEST_OPERATORS, FILE_PROPERTIES, isSelector } from '../../plugin-sdk';
import { Button } from '../../ui/button';
import { cn } from '../../ui/cn';
import { Input } from '../../ui/input';
import { useNodeWidgetEnv } from './context';
import { FileTestRows } from './file-tests';
import type { NodeWidgetProps } from './list-widgets';
import { keepOrFirst, operatorsFor, takesValue, operatorLabel } from './operators';
import { defaultOf, elementShape, RowSelect, RowList, rowsWithIssues } from './rows';
import { TemplateEditor } from './template-editor';
import { VariablePicker } from './variable-picker';
import s from './widgets.module.css';

type Row = Record<string, unknown>;
type AnySchema = Parameters<typeof enumValues>[0];
const str = (v: unknown) => (typeof v === 'string' ? v : '');

/**
 * An id not in `taken`: `prefix` and the smallest free number (case and condition ids; case ids are
 * also branch handle ids, so they keep to letters, digits and `_`).
 * @example uniqueId('case', ['true', 'case_1']) // 'case_2'
 */
export function uniqueId(prefix: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  for (let i = 1; ; i++) if (!used.has(`${prefix}_${i}`)) return `${prefix}_${i}`;
}

const isFileList = (type: ValueType | undefined) => !!type && isArrayType(type) && elementType(type) === 'file';

/** The file tests of one condition: joined by and/or, each `{ key, operator, value }` on one property. */
function FileTestsBlock({ row, update, index, all, tk, locked }: { row: Row; update(patch: Row): void; index: number; all: readonly string[]; tk: NodeWidgetProps['tk']; locked: boolean }) {
  const { t } = useTranslation('inspector');
  const block = (row.fileConditions ?? {}) as Row;
  const tests = (Array.isArray(block.conditions) ? block.conditions : []) as Row[];
  const logical = str(block.logicalOperator) || 'and';
  const set = (patch: Row) => update({ fileConditions: { logicalOperator: logical, conditions: tests, ...patch } });
  return (
    <div className={cn(s.wide, s.case)} data-slot="file-tests">
      <header className={s.caseHeader}>
        <span>{tk('conditions.files')}</span>
        <RowSelect
          aria-label={tk('conditions.fileLogic', { index: index + 1 })}
          value={logical}
          options={['and', 'or'].map((v) => ({ value: v, label: tk(`conditions.logicalOperators.${v}`) }))}
          disabled={locked}
          onChange={(v) => set({ logicalOperator: v })}
        />
      </header>
      <FileTestRows
        value={tests}
        onChange={(next) => set({ conditions: next })}
        keys={FILE_PROPERTIES}
        typeOf={(key) => (key === 'size' ? 'number' : 'string')}
        operators={all}
        tk={tk}
        locked={locked}
        label={tk('conditions.fileTests', { index: index + 1 })}
        addLabel={tk('conditions.addFileTest')}
        rowLabels={{ operator: 'conditions.fileOperator', value: 'conditions.fileValue' }}
        max={20}
      />
    </div>
  );
}

interface ConditionRowsProps {
  value: Row[];
  onChange(next: Row[]): void;
  /** The condition element's shape (operators come from its `operator` enum). */
  shape: Record<string, AnySchema>;
  tk: NodeWidgetProps['tk'];
  locked: boolean;
  invalidRows?: ReadonlySet<number>;
  label: string;
}

/** Rows `{ selector | name, operator, value }`; operators narrowed to the left value's type. */
function ConditionRows({ value, onChange, shape, tk, locked, invalidRows, label }: ConditionRowsProps) {
  const { t } = useTranslation('inspector');
  const env = useNodeWidgetEnv();
  const all = (shape.operator ? enumValues(shape.operator) : null) ?? [];
  const byName = 'name' in shape && !('selector' in shape);
  const opLabel = (op: string) => operatorLabel(tk, all, op);
  return (
    <RowList
      value={value}
      onChange={onChange}
      readOnly={locked}
      invalidRows={invalidRows}
      label={label}
      addLabel={t('conditions.addCondition')}
      newRow={(rows) => ({ ...(shape.id ? { id: uniqueId('c', rows.map((r) => str(r.id))) } : {}), ...(byName ? { name: '' } : { selector: [] }), operator: str(defaultOf(shape.operator)) || all[0], value: '' })}
      renderRow={(row, update, i) => {
        const type = !byName && isSelector(row.selector) ? env.typeOf(row.selector) : undefined;
        const ops = byName ? all : operatorsFor(all, type);
        const op = str(row.operator);
        // "contains" on a list of files tests its files' properties (Dify's sub-conditions), not a value.
        const fileTests = 'fileConditions' in shape && isFileList(type) && FILE_LIST_TEST_OPERATORS.includes(op);
        return (
          <>
            {byName ? (
              <Input size="sm" value={str(row.name)} readOnly={locked} aria-label={t('conditions.field', { index: i + 1 })} placeholder={t('conditions.fieldPlaceholder')} onChange={(e) => update({ name: e.target.value })} />
            ) : (
              <VariablePicker
                aria-label={t('conditions.variable', { index: i + 1 })}
                value={Array.isArray(row.selector) ? (row.selector as string[]) : []}
                readOnly={locked}
                onChange={(sel) => {
                  const nextOps = operatorsFor(all, isSelector(sel) ? env.typeOf(sel) : undefined);
                  update({ selector: sel, operator: keepOrFirst(op, nextOps) });
                }}
              />
            )}
            <RowSelect
              aria-label={t('conditions.operator', { index: i + 1 })}
              value={op}
              options={(ops.includes(op) ? ops : [op, ...ops]).map((o) => ({ value: o, label: opLabel(o) }))}
              disabled={locked}
              onChange={(v) => update({ operator: v })}
            />
            {fileTests ? (
              <FileTestsBlock row={row} update={update} index={i} all={all} tk={tk} locked={locked} />
            ) : (
              takesValue(op) && (
                <TemplateEditor
                  className={s.wide}
                  rows={1}
                  aria-label={t('conditions.value', { index: i + 1 })}
                  placeholder={t('conditions.valuePlaceholder')}
                  value={str(row.value)}
                  readOnly={locked}
                  onChange={(v) => update({ value: v })}
                />
              )
            )}
          </>
        );
      }}
    />
  );
}

/**
 * The condition editor: if-else cases (IF, ELIF … each with and/or and condition rows, then ELSE),
 * or a plain list of conditions (a loop's break conditions, metadata filters).
 */
export function ConditionsWidget(p: NodeWidgetProps) {
  const { t } = useTranslation('inspector');
  const env = useNodeWidgetEnv();
  const locked = p.readOnly || p.disabled || env.readOnly;
  const shape = elementShape(p.field);
  const rows = (Array.isArray(p.value) ? p.value : []) as Row[];
  const label = p.field.label ? p.tk(p.field.label) : p.field.name;
  const bad = rowsWithIssues(env.issues, p.field.name);
  if (!('conditions' in shape)) {
    return (
      <div id={p.id} className={s.cases} onBlur={p.onBlur}>
        <ConditionRows value={rows} onChange={(v) => p.onChange(v)} shape={shape} tk={p.tk} locked={locked} invalidRows={bad} label={label} />
      </div>
    );
  }
  const condShape = elementShape({ ...p.field, schema: shape.conditions } as NodeWidgetProps['field']);
  const logical = (enumValues(shape.logicalOperator) ?? ['and', 'or']).map((v) => ({ value: v, label: p.tk(`conditions.logicalOperators.${v}`) }));
  const setCase = (i: number, patch: Row) => p.onChange(rows.map((c, j) => (j === i ? { ...c, ...patch } : c)));
  const conditionIssues = (i: number) =>
    new Set(env.issues.filter((x) => x.path?.[0] === p.field.name && x.path[1] === i && typeof x.path[3] === 'number').map((x) => x.path![3] as number));
  return (
    <div id={p.id} className={s.cases} role="group" aria-label={label} onBlur={p.onBlur}>
      {rows.map((c, i) => (
        <section key={str(c.id) || i} className={cn(s.case, bad.has(i) && s.rowInvalid)} aria-label={i === 0 ? t('conditions.if') : t('conditions.elif')}>
          <header className={s.caseHeader}>
            <span>{i === 0 ? t('conditions.if') : t('conditions.elif')}</span>
            <RowSelect aria-label={t('conditions.logic', { index: i + 1 })} value={str(c.logicalOperator) || 'and'} options={logical} disabled={locked} onChange={(v) => setCase(i, { logicalOperator: v })} />
            {!locked && (
              <Button size="sm" variant="ghost" iconOnly aria-label={t('conditions.removeCase', { index: i + 1 })} disabled={rows.length <= 1} onClick={() => p.onChange(rows.filter((_, j) => j !== i))}>
                <Trash2 aria-hidden="true" />
              </Button>
            )}
          </header>
          <ConditionRows
            value={(Array.isArray(c.conditions) ? c.conditions : []) as Row[]}
            onChange={(v) => setCase(i, { conditions: v })}
            shape={condShape}
            tk={p.tk}
            locked={locked}
            invalidRows={conditionIssues(i)}
            label={t('conditions.caseConditions', { index: i + 1 })}
          />
        </section>
      ))}
      {!locked && (
        <Button size="sm" className={s.addButton} onClick={() => p.onChange([...rows, { id: uniqueId('case', rows.map((c) => str(c.id))), logicalOperator: 'and', conditions: [] }])}>
          <Plus aria-hidden="true" />
          {t('conditions.addCase')}
        </Button>
      )}
      <div className={s.case}>
        <header className={s.caseHeader}>{t('conditions.else')}</header>
        <p className={s.muted}>{t('conditions.elseHelp')}</p>
      </div>
    </div>
  );
}
