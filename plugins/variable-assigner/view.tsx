import { useMemo } from 'react';
import { defineNodeView } from '../../src/plugin-sdk/view';
import { isSelector } from '../../src/plugin-sdk';
import { asWidget, ConstantInput, enumChoices, RowSelect, RowList, useInspectorT, useRows, VariablePicker, widgetStyles as s, type NodeWidgetProps } from '../../src/canvas/widgets/kit';
import { ASSIGNER_WIDGETS, variableAssignerPlugin } from './manifest';

const str = (v: unknown) => (typeof v === 'string' ? v : '');
const sel = (v: unknown) => (Array.isArray(v) ? (v as string[]) : []);

/**
 * Variable-assigner rows: the variable to change (conversation variables, and the loop variables of
 * an enclosing loop), the operation, and the new value (another variable or a constant).
 */
function AssignmentsWidget(p: NodeWidgetProps) {
  const { t } = useInspectorT();
  const { list, locked, blank, shape, env } = useRows(p);
  const operations = enumChoices(shape.operation, p.tk, 'operations');
  const writable = useMemo(() => env.variables.filter((g) => g.kind === 'conversation' || g.kind === 'container'), [env.variables]);
  return (
    <RowList
      {...list}
      addLabel={t('rows.addAssignment')}
      newRow={() => blank()}
      renderRow={(row, update) => {
        const targetType = isSelector(row.target) ? env.typeOf(row.target) : undefined;
        const needsValue = !['clear', 'remove-first', 'remove-last'].includes(str(row.operation));
        return (
          <>
            <VariablePicker aria-label={t('rows.target')} groups={writable} value={sel(row.target)} readOnly={locked} onChange={(v) => update({ target: v })} />
            <RowSelect aria-label={t('rows.operation')} value={str(row.operation)} options={operations} disabled={locked} onChange={(v) => update({ operation: v })} />
            {needsValue && (
              <RowSelect
                aria-label={t('rows.source')}
                value={str(row.source) || 'variable'}
                options={[
                  { value: 'variable', label: t('rows.variable') },
                  { value: 'constant', label: t('rows.constant') },
                ]}
                disabled={locked}
                onChange={(v) => update({ source: v })}
              />
            )}
            {needsValue &&
              (row.source === 'constant' ? (
                <ConstantInput aria-label={t('rows.value')} className={s.wide} type={targetType ?? 'string'} value={row.value} readOnly={locked} onChange={(v) => update({ value: v })} />
              ) : (
                <VariablePicker aria-label={t('rows.value')} className={s.wide} value={sel(row.selector)} readOnly={locked} onChange={(v) => update({ selector: v })} />
              ))}
          </>
        );
      }}
    />
  );
}

/** The assigner's own widget: its assignment rows. */
export default defineNodeView(variableAssignerPlugin, {
  widgets: { [ASSIGNER_WIDGETS.assignments]: asWidget(AssignmentsWidget) },
});
