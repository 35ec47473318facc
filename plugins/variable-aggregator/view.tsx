import { useTranslation } from 'react-i18next';
import type { ValueType } from '../../schemas/flow';
import { defineNodeView } from '../../src/plugin-sdk/view';
import { asWidget, enumChoices, NameField, RowSelect, RowList, useInspectorT, useRowBase, useRows, useVariableLabels, VariablePicker, widgetStyles as s, type NodeWidgetProps } from '../../src/canvas/widgets/kit';
import { AGGREGATOR_WIDGETS, variableAggregatorPlugin } from './manifest';

const str = (v: unknown) => (typeof v === 'string' ? v : '');

/** Variable-aggregator groups `[{ name, outputType, selectors }]`. */
function VariableGroupsWidget(p: NodeWidgetProps) {
  const { t } = useInspectorT();
  const { typeLabel } = useVariableLabels();
  const { list, locked, blank, shape } = useRows(p);
  const types = enumChoices(shape.outputType, p.tk, 'types').map((c) => ({ value: c.value, label: c.value === 'auto' ? c.label : typeLabel(c.value as ValueType) }));
  return (
    <RowList
      {...list}
      addLabel={t('rows.addGroup')}
      newRow={(rows) => blank({ name: `group${rows.length + 1}` })}
      renderRow={(row, update) => (
        <>
          <NameField row={row} update={update} locked={locked} />
          <RowSelect aria-label={t('rows.type')} value={str(row.outputType) || 'auto'} options={types} disabled={locked} onChange={(v) => update({ outputType: v })} />
          <div className={s.wide}>
            <RowList<string[]>
              value={Array.isArray(row.selectors) ? (row.selectors as string[][]) : []}
              onChange={(v) => update({ selectors: v })}
              readOnly={locked}
              addLabel={t('rows.addVariable')}
              newRow={() => []}
              renderRow={(selector, _u, i) => (
                <VariablePicker
                  aria-label={t('rows.variableN', { index: i + 1 })}
                  value={selector}
                  readOnly={locked}
                  onChange={(v) => update({ selectors: (row.selectors as string[][]).map((x, j) => (j === i ? v : x)) })}
                />
              )}
            />
          </div>
        </>
      )}
    />
  );
}

/** A list of selectors. */
function VariableListWidget(p: NodeWidgetProps) {
  const { t } = useTranslation('inspector');
  const { list, locked } = useRowBase(p);
  return (
    <RowList<string[]>
      {...list}
      value={Array.isArray(p.value) ? (p.value as string[][]) : []}
      onChange={(v) => p.onChange(v)}
      addLabel={t('rows.addVariable')}
      newRow={() => []}
      renderRow={(row, _update, i) => (
        <VariablePicker
          aria-label={t('rows.variableN', { index: i + 1 })}
          value={row}
          readOnly={locked}
          onChange={(v) => {
            const next = [...(p.value as string[][])];
            next[i] = v;
            p.onChange(next);
          }}
        />
      )}
    />
  );
}

/** The aggregator's own widgets: its variables, or its groups of variables. */
export default defineNodeView(variableAggregatorPlugin, {
  widgets: { [AGGREGATOR_WIDGETS.variableGroups]: asWidget(VariableGroupsWidget), [AGGREGATOR_WIDGETS.variableList]: asWidget(VariableListWidget) },
});
