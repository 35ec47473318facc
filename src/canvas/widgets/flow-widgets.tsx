import { useMemo } from 'react';
import { defaultValueFor } from '../../../schemas/flow';
import { ConstantInput } from './constant-input';
import { useNodeWidgetEnv } from './context';
import { useInspectorT } from './labels';
import type { NodeWidgetProps } from './list-widgets';
import { defaultOf, elementShape, maxOf, RowSelect, RowList, rowsWithIssues } from './rows';
import s from './widgets.module.css';

type Row = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' ? v : '');

/** A row widget's list props, its element shape and a blank row from the element's defaults. */
export function useRows(p: NodeWidgetProps) {
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

/** A row's `name` text box (compact). */
export function NameField({ row, update, locked }: { row: Row; update: (p: Row) => void; locked: boolean }) {
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
            <RowSelect
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
