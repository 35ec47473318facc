import { defaultValueFor, VALUE_TYPES, type ValueType } from '../../schemas/flow';
import { defineNodeView } from '../../src/plugin-sdk/view';
import { asWidget, ConstantInput, NameField, RowSelect, RowList, useInspectorT, useRows, useVariableLabels, VariablePicker, widgetStyles as s, type NodeWidgetProps } from '../../src/canvas/widgets/kit';
import { LOOP_WIDGETS, loopPlugin } from './manifest';

const str = (v: unknown) => (typeof v === 'string' ? v : '');
const sel = (v: unknown) => (Array.isArray(v) ? (v as string[]) : []);
const asType = (v: unknown, fallback: ValueType = 'string'): ValueType => ((VALUE_TYPES as readonly string[]).includes(v as string) ? (v as ValueType) : fallback);

/** Loop variables `[{ name, type, source, value | selector }]`. */
function LoopVariablesWidget(p: NodeWidgetProps) {
  const { t } = useInspectorT();
  const { typeLabel } = useVariableLabels();
  const { list, locked, blank } = useRows(p);
  const types = VALUE_TYPES.map((v) => ({ value: v, label: typeLabel(v) }));
  return (
    <RowList
      {...list}
      addLabel={t('rows.addVariable')}
      newRow={() => blank()}
      renderRow={(row, update) => {
        const type = asType(row.type);
        return (
          <>
            <NameField row={row} update={update} locked={locked} />
            <RowSelect aria-label={t('rows.type')} value={type} options={types} disabled={locked} onChange={(v) => update({ type: v, value: defaultValueFor(asType(v)) })} />
            <RowSelect
              aria-label={t('rows.source')}
              value={str(row.source) || 'constant'}
              options={[
                { value: 'constant', label: t('rows.constant') },
                { value: 'variable', label: t('rows.variable') },
              ]}
              disabled={locked}
              onChange={(v) => update({ source: v })}
            />
            {row.source === 'variable' ? (
              <VariablePicker aria-label={t('rows.value')} className={s.wide} types={[type]} value={sel(row.selector)} readOnly={locked} onChange={(v) => update({ selector: v })} />
            ) : (
              <ConstantInput aria-label={t('rows.value')} className={s.wide} type={type} value={row.value ?? defaultValueFor(type)} readOnly={locked} onChange={(v) => update({ value: v })} />
            )}
          </>
        );
      }}
    />
  );
}

/** The loop's own widget: its loop variables. */
export default defineNodeView(loopPlugin, {
  widgets: { [LOOP_WIDGETS.loopVariables]: asWidget(LoopVariablesWidget) },
});
