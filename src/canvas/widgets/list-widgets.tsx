import { useTranslation } from 'react-i18next';
import { VALUE_TYPES, type ValueType } from '../../../schemas/flow';
import type { WidgetRenderProps } from '../../kit/schema-form';
import type { ControlAria } from '../../kit/widgets/types';
import { Input } from '../../ui/input';
import { Switch } from '../../ui/switch';
import { useNodeWidgetEnv } from './context';
import { useVariableLabels } from './labels';
import { defaultOf, elementShape, enumChoices, maxOf, minOf, RowSelect, RowList, rowsWithIssues } from './rows';
import { TemplateEditor } from './template-editor';
import { VariablePicker } from './variable-picker';
import s from './widgets.module.css';

/** What SchemaForm hands a custom widget, plus the id and aria props of its <Field>. */
export type NodeWidgetProps = WidgetRenderProps & ControlAria;

type Row = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' ? v : '');
const sel = (v: unknown) => (Array.isArray(v) ? (v as string[]) : []);

/** The props every row widget passes its RowList. */
export function useRowBase(p: NodeWidgetProps) {
  const env = useNodeWidgetEnv();
  const locked = p.readOnly || p.disabled || env.readOnly;
  return {
    env,
    locked,
    list: {
      value: (Array.isArray(p.value) ? p.value : []) as Row[],
      onChange: (next: Row[]) => p.onChange(next),
      max: maxOf(p.field),
      min: minOf(p.field),
      readOnly: locked,
      invalidRows: rowsWithIssues(env.issues, p.field.name),
      id: p.id,
      label: p.field.label ? p.tk(p.field.label) : p.field.name,
      onBlur: p.onBlur,
    },
  };
}

/** A new row from the element schema's defaults. */
export function blankRow(p: NodeWidgetProps, extra: Row = {}): Row {
  const shape = elementShape(p.field);
  const out: Row = {};
  for (const [k, schema] of Object.entries(shape)) {
    const d = defaultOf(schema);
    if (d !== undefined) out[k] = structuredClone(d);
  }
  return { ...out, ...extra };
}

/** A row's `name` text box. */
export function NameInput({ row, update, locked }: { row: Row; update: (p: Row) => void; locked: boolean }) {
  const { t } = useTranslation('inspector');
  return <Input size="sm" value={str(row.name)} readOnly={locked} aria-label={t('rows.name')} placeholder={t('rows.name')} onChange={(e) => update({ name: e.target.value })} />;
}

/** `[{ name, selector }]`: named inputs taken from variables (code, template, end). */
export function InputVariablesWidget(p: NodeWidgetProps) {
  const { t } = useTranslation('inspector');
  const { list, locked } = useRowBase(p);
  return (
    <RowList
      {...list}
      addLabel={t('rows.addVariable')}
      newRow={() => blankRow(p)}
      renderRow={(row, update) => (
        <>
          <NameInput row={row} update={update} locked={locked} />
          <VariablePicker aria-label={t('rows.variable')} value={sel(row.selector)} readOnly={locked} onChange={(v) => update({ selector: v })} />
        </>
      )}
    />
  );
}

/** `[{ name, type }]` or `[{ name, type, description, required }]`: declared outputs and parameters. */
export function OutputVariablesWidget(p: NodeWidgetProps) {
  const { t } = useTranslation('inspector');
  const { typeLabel } = useVariableLabels();
  const { list, locked } = useRowBase(p);
  const shape = elementShape(p.field);
  const types = (enumChoices(shape.type, p.tk).map((c) => c.value) as ValueType[]).filter((v) => (VALUE_TYPES as readonly string[]).includes(v));
  const typeOptions = types.map((v) => ({ value: v, label: typeLabel(v) }));
  return (
    <RowList
      {...list}
      addLabel={t('rows.addOutput')}
      newRow={() => blankRow(p)}
      renderRow={(row, update) => (
        <>
          <NameInput row={row} update={update} locked={locked} />
          <RowSelect aria-label={t('rows.type')} value={str(row.type)} options={typeOptions} disabled={locked} onChange={(v) => update({ type: v })} />
          {'description' in shape && (
            <Input
              size="sm"
              className={s.wide}
              value={str(row.description)}
              readOnly={locked}
              aria-label={t('rows.description')}
              placeholder={t('rows.description')}
              onChange={(e) => update({ description: e.target.value })}
            />
          )}
          {'required' in shape && (
            <label className={s.inline}>
              <Switch size="sm" checked={!!row.required} disabled={locked} onCheckedChange={(v) => update({ required: v })} />
              {t('rows.required')}
            </label>
          )}
        </>
      )}
    />
  );
}

/** Tool / MCP arguments: each a variable, or a text that may hold references. */
export function ToolParamsWidget(p: NodeWidgetProps) {
  const { t } = useTranslation('inspector');
  const { list, locked } = useRowBase(p);
  return (
    <RowList
      {...list}
      addLabel={t('rows.addParam')}
      newRow={() => blankRow(p)}
      renderRow={(row, update) => (
        <>
          <NameInput row={row} update={update} locked={locked} />
          <RowSelect
            aria-label={t('rows.source')}
            value={str(row.source) || 'text'}
            options={[
              { value: 'text', label: t('rows.text') },
              { value: 'variable', label: t('rows.variable') },
            ]}
            disabled={locked}
            onChange={(v) => update({ source: v })}
          />
          {row.source === 'variable' ? (
            <VariablePicker aria-label={t('rows.value')} className={s.wide} value={sel(row.selector)} readOnly={locked} onChange={(v) => update({ selector: v })} />
          ) : (
            <TemplateEditor aria-label={t('rows.value')} className={s.wide} rows={1} value={str(row.text)} readOnly={locked} onChange={(v) => update({ text: v })} />
          )}
        </>
      )}
    />
  );
}
