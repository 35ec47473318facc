import { useTranslation } from 'react-i18next';
import { VALUE_TYPES, type ValueType } from '../../../schemas/flow';
import type { WidgetRenderProps } from '../../kit/schema-form';
import type { ControlAria } from '../../kit/widgets/types';
import { TagInput } from '../../kit/widgets/tag-input';
import { Input } from '../../ui/input';
import { Switch } from '../../ui/switch';
import { Textarea } from '../../ui/textarea';
import { useNodeWidgetEnv } from './context';
import { useVariableLabels } from './labels';
import { defaultOf, elementShape, enumChoices, maxOf, minOf, NativeSelect, RowList, rowsWithIssues } from './rows';
import { TemplateEditor } from './template-editor';
import { VariablePicker } from './variable-picker';
import s from './widgets.module.css';

/** What SchemaForm hands a custom widget, plus the id and aria props of its <Field>. */
export type NodeWidgetProps = WidgetRenderProps & ControlAria;

type Row = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' ? v : '');
const sel = (v: unknown) => (Array.isArray(v) ? (v as string[]) : []);

/** The props every row widget passes its RowList. */
function useRowBase(p: NodeWidgetProps) {
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
function blankRow(p: NodeWidgetProps, extra: Row = {}): Row {
  const shape = elementShape(p.field);
  const out: Row = {};
  for (const [k, schema] of Object.entries(shape)) {
    const d = defaultOf(schema);
    if (d !== undefined) out[k] = structuredClone(d);
  }
  return { ...out, ...extra };
}

function NameInput({ row, update, locked }: { row: Row; update: (p: Row) => void; locked: boolean }) {
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
          <NativeSelect aria-label={t('rows.type')} value={str(row.type)} options={typeOptions} disabled={locked} onChange={(v) => update({ type: v })} />
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

/** Rows of the start node's form: name, label, type, required, and the type's own settings. */
export function FormFieldsWidget(p: NodeWidgetProps) {
  const { t } = useTranslation('inspector');
  const { list, locked } = useRowBase(p);
  const shape = elementShape(p.field);
  const types = enumChoices(shape.type, p.tk);
  return (
    <RowList
      {...list}
      reorder
      addLabel={t('rows.addField')}
      newRow={() => blankRow(p)}
      renderRow={(row, update) => (
        <>
          <NameInput row={row} update={update} locked={locked} />
          <Input size="sm" value={str(row.label)} readOnly={locked} aria-label={t('rows.label')} placeholder={t('rows.label')} onChange={(e) => update({ label: e.target.value })} />
          <NativeSelect aria-label={t('rows.type')} value={str(row.type)} options={types} disabled={locked} onChange={(v) => update({ type: v })} />
          <label className={s.inline}>
            <Switch size="sm" checked={!!row.required} disabled={locked} onCheckedChange={(v) => update({ required: v })} />
            {t('rows.required')}
          </label>
          {row.type === 'select' && (
            <TagInput
              className={s.wide}
              aria-label={t('rows.options')}
              placeholder={t('rows.options')}
              value={Array.isArray(row.options) ? (row.options as string[]) : []}
              maxTags={100}
              maxTagLength={200}
              readOnly={locked}
              onChange={(v) => update({ options: v })}
            />
          )}
          {(row.type === 'text' || row.type === 'paragraph') && (
            <Input
              size="sm"
              type="number"
              min={1}
              value={typeof row.max_length === 'number' ? String(row.max_length) : ''}
              readOnly={locked}
              aria-label={t('rows.maxLength')}
              placeholder={t('rows.maxLength')}
              onChange={(e) => update({ max_length: e.target.value ? Math.max(1, Math.round(Number(e.target.value))) : undefined })}
            />
          )}
          {(row.type === 'file' || row.type === 'file-list') && (
            <TagInput
              className={s.wide}
              aria-label={t('rows.extensions')}
              placeholder={t('rows.extensions')}
              value={Array.isArray(row.allowed_extensions) ? (row.allowed_extensions as string[]) : []}
              maxTags={50}
              maxTagLength={20}
              readOnly={locked}
              onChange={(v) => update({ allowed_extensions: v })}
            />
          )}
        </>
      )}
    />
  );
}

/** `[{ key, value }]` (values may hold references), or form-data rows with a text or file value. */
export function KeyValuesWidget(p: NodeWidgetProps) {
  const { t } = useTranslation('inspector');
  const { list, locked } = useRowBase(p);
  const shape = elementShape(p.field);
  const hasFile = 'file' in shape;
  return (
    <RowList
      {...list}
      addLabel={t('rows.addPair')}
      newRow={() => blankRow(p)}
      renderRow={(row, update) => (
        <>
          <Input size="sm" value={str(row.key)} readOnly={locked} aria-label={t('rows.key')} placeholder={t('rows.key')} onChange={(e) => update({ key: e.target.value })} />
          {hasFile && (
            <NativeSelect
              aria-label={t('rows.type')}
              value={str(row.type) || 'text'}
              options={[
                { value: 'text', label: t('rows.text') },
                { value: 'file', label: t('rows.file') },
              ]}
              disabled={locked}
              onChange={(v) => update({ type: v })}
            />
          )}
          {hasFile && row.type === 'file' ? (
            <VariablePicker aria-label={t('rows.value')} value={sel(row.file)} types={['file', 'array[file]']} readOnly={locked} onChange={(v) => update({ file: v })} />
          ) : (
            <TemplateEditor aria-label={t('rows.value')} rows={1} value={str(row.value)} readOnly={locked} placeholder={t('rows.value')} onChange={(v) => update({ value: v })} />
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
          <NativeSelect
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

/**
 * The next class id: one more than the largest numeric id in use (Dify numbers its classes), so
 * ids stay short, unique and valid as handle ids.
 * @example nextClassId(['1', '2', 'x']) // '3'
 */
export function nextClassId(ids: readonly string[]): string {
  const max = ids.reduce((m, id) => (/^\d+$/.test(id) ? Math.max(m, Number(id)) : m), 0);
  return String(max + 1);
}

/** Classifier classes `[{ id, name }]`; the id (also the branch handle) is generated. */
export function ClassListWidget(p: NodeWidgetProps) {
  const { t } = useTranslation('inspector');
  const { list, locked } = useRowBase(p);
  return (
    <RowList
      {...list}
      addLabel={t('rows.addClass')}
      newRow={(rows) => blankRow(p, { id: nextClassId(rows.map((r) => str(r.id))) })}
      renderRow={(row, update, i) => (
        <Textarea
          className={s.wide}
          rows={2}
          value={str(row.name)}
          readOnly={locked}
          aria-label={t('rows.className', { index: i + 1 })}
          placeholder={t('rows.classPlaceholder')}
          onChange={(e) => update({ name: e.target.value })}
        />
      )}
    />
  );
}

/** A list of selectors. */
export function VariableListWidget(p: NodeWidgetProps) {
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
