import { useMemo } from 'react';
import { defaultValueFor, VALUE_TYPES, type ValueType } from '../../../schemas/flow';
import { isSelector } from '../../plugin-sdk';
import { ConstantInput } from './constant-input';
import { useNodeWidgetEnv } from './context';
import { useVariableLabels, useInspectorT } from './labels';
import type { NodeWidgetProps } from './list-widgets';
import { defaultOf, elementShape, enumChoices, maxOf, NativeSelect, RowList, rowsWithIssues } from './rows';
import { VariablePicker } from './variable-picker';
import s from './widgets.module.css';

type Row = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' ? v : '');
const sel = (v: unknown) => (Array.isArray(v) ? (v as string[]) : []);
const asType = (v: unknown, fallback: ValueType = 'string'): ValueType => ((VALUE_TYPES as readonly string[]).includes(v as string) ? (v as ValueType) : fallback);

function useRows(p: NodeWidgetProps) {
  const env = useNodeWidgetEnv();
  const locked = p.readOnly || p.disabled || env.readOnly;
  const shape = elementShape(p.field);
  const blank = (extra: Row = {}): Row => {
    const out: Row = {};
    for (const [k, schema] of Object.entries(shape)) {
      const d = defaultOf(schema);
      if (d !== undefined) out[k] = structuredClone(d);
    }
    return { ...out, ...extra };
  };
  return {
    env,
    locked,
    shape,
    blank,
    list: {
      value: (Array.isArray(p.value) ? p.value : []) as Row[],
      onChange: (next: Row[]) => p.onChange(next),
      max: maxOf(p.field),
      readOnly: locked,
      invalidRows: rowsWithIssues(env.issues, p.field.name),
      id: p.id,
      label: p.field.label ? p.tk(p.field.label) : p.field.name,
      onBlur: p.onBlur,
    },
  };
}

/** Loop variables `[{ name, type, source, value | selector }]`. */
export function LoopVariablesWidget(p: NodeWidgetProps) {
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
            <NativeSelect aria-label={t('rows.type')} value={type} options={types} disabled={locked} onChange={(v) => update({ type: v, value: defaultValueFor(asType(v)) })} />
            <NativeSelect
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

function NameField({ row, update, locked }: { row: Row; update: (p: Row) => void; locked: boolean }) {
  const { t } = useInspectorT();
  return (
    <input
      className={s.select}
      value={str(row.name)}
      readOnly={locked}
      aria-label={t('rows.name')}
      placeholder={t('rows.name')}
      onChange={(e) => update({ name: e.target.value })}
    />
  );
}

/**
 * Variable-assigner rows: the variable to change (conversation variables, and the loop variables of
 * an enclosing loop), the operation, and the new value (another variable or a constant).
 */
export function AssignmentsWidget(p: NodeWidgetProps) {
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
            <NativeSelect aria-label={t('rows.operation')} value={str(row.operation)} options={operations} disabled={locked} onChange={(v) => update({ operation: v })} />
            {needsValue && (
              <NativeSelect
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

/** Variable-aggregator groups `[{ name, outputType, selectors }]`. */
export function VariableGroupsWidget(p: NodeWidgetProps) {
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
          <NativeSelect aria-label={t('rows.type')} value={str(row.outputType) || 'auto'} options={types} disabled={locked} onChange={(v) => update({ outputType: v })} />
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

/** Default values per output (error strategy "default value"): one row per output of the node. */
export function DefaultValuesWidget(p: NodeWidgetProps) {
  const { t } = useInspectorT();
  const { list, locked, blank, env } = useRows(p);
  const ports = useMemo(
    () => env.registry.outputsOf(env.node, env.graph).filter((o) => o.name !== 'error_message' && o.name !== 'error_code'),
    [env.registry, env.node, env.graph],
  );
  const names = ports.map((o) => ({ value: o.name, label: o.name }));
  return (
    <RowList
      {...list}
      addLabel={t('rows.addDefault')}
      newRow={(rows) => {
        const free = ports.find((o) => !rows.some((r) => r.name === o.name));
        return blank(free ? { name: free.name, value: defaultValueFor(free.type) } : {});
      }}
      renderRow={(row, update) => {
        const port = ports.find((o) => o.name === row.name);
        const type = port?.type ?? 'string';
        return (
          <>
            <NativeSelect
              aria-label={t('rows.output')}
              value={str(row.name)}
              options={names.some((n) => n.value === row.name) ? names : [{ value: str(row.name), label: str(row.name) || '—' }, ...names]}
              disabled={locked}
              onChange={(v) => update({ name: v, value: defaultValueFor(ports.find((o) => o.name === v)?.type ?? 'string') })}
            />
            <ConstantInput aria-label={t('rows.value')} type={type} value={row.value ?? defaultValueFor(type)} readOnly={locked} onChange={(v) => update({ value: v })} />
          </>
        );
      }}
    />
  );
}

/** Other agent nodes of the flow this agent may hand the conversation to (ids). */
export function AgentNodesWidget(p: NodeWidgetProps) {
  const { t } = useInspectorT();
  const env = useNodeWidgetEnv();
  const locked = p.readOnly || p.disabled || env.readOnly;
  const chosen = new Set(Array.isArray(p.value) ? (p.value as string[]) : []);
  const agents = env.graph.nodes.filter((n) => n.kind === env.node.kind && n.id !== env.node.id);
  const plugin = env.registry.get(env.node.kind);
  const toggle = (id: string, on: boolean) => p.onChange(on ? [...chosen, id] : [...chosen].filter((x) => x !== id));
  if (!agents.length) return <p className={s.muted} id={p.id}>{t('agents.empty')}</p>;
  return (
    <div className={s.list} id={p.id} role="group" aria-label={p.field.label ? p.tk(p.field.label) : p.field.name}>
      {agents.map((n) => (
        <label key={n.id} className={s.check}>
          <input type="checkbox" checked={chosen.has(n.id)} disabled={locked} onChange={(e) => toggle(n.id, e.target.checked)} />
          {n.title || (plugin ? t(`${plugin.ns}:${plugin.titleKey}`) : n.id)}
          <span className={s.muted}>{n.id}</span>
        </label>
      ))}
    </div>
  );
}
