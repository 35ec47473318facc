import { useContext } from 'react';
import { checksOf, defOf, enumValues, objectShape, unwrap } from '../../../schemas/ui';
import { NumberInput } from '../../kit/widgets/number-input';
import { TagInput } from '../../kit/widgets/tag-input';
import { Switch } from '../../ui/switch';
import { ModelListContext, useNodeWidgetEnv } from './context';
import type { NodeWidgetProps } from './list-widgets';
import { RowSelect } from './rows';
import { useInspectorT } from './labels';
import s from './widgets.module.css';

type Row = Record<string, unknown>;
type AnySchema = Parameters<typeof unwrap>[0];
const str = (v: unknown) => (typeof v === 'string' ? v : '');

/** The i18n key of a completion parameter's label (known names; others show as they are). */
const PARAM_NAMES = ['temperature', 'top_p', 'presence_penalty', 'frequency_penalty', 'max_tokens', 'stop', 'response_format'];

/**
 * Provider and model from the workspace's model list (`ModelListContext`), then the completion
 * parameters the schema declares: each number with an enable switch and its range, stop words,
 * response format.
 */
export function ModelWidget(p: NodeWidgetProps) {
  const { t } = useInspectorT();
  const env = useNodeWidgetEnv();
  const { models, loading } = useContext(ModelListContext);
  const locked = p.readOnly || p.disabled || env.readOnly;
  const value = (p.value && typeof p.value === 'object' ? p.value : {}) as Row;
  const params = (value.params && typeof value.params === 'object' ? value.params : {}) as Row;
  const shape = objectShape(p.field.schema) ?? {};
  const paramShape = (shape.params && objectShape(shape.params)) ?? {};
  const current = value.provider && value.name ? `${str(value.provider)}/${str(value.name)}` : '';
  const set = (patch: Row) => p.onChange({ ...value, ...patch });
  const setParam = (name: string, v: unknown) => {
    const next = { ...params };
    if (v === undefined) delete next[name];
    else next[name] = v;
    set({ params: next });
  };
  const known = models.some((m) => `${m.provider}/${m.model}` === current);
  const options = [
    { value: '', label: t('model.choose') },
    ...(current && !known ? [{ value: current, label: t('model.unavailable', { model: current }) }] : []),
    ...models.map((m) => ({ value: `${m.provider}/${m.model}`, label: `${m.label ?? m.model} · ${m.provider}` })),
  ];
  return (
    <div className={s.model} id={p.id} role="group" aria-label={p.field.label ? p.tk(p.field.label) : p.field.name}>
      {models.length === 0 && !loading ? (
        <p className={s.muted} role="note">
          {t('model.empty')}
        </p>
      ) : (
        <RowSelect
          aria-label={t('model.model')}
          value={current}
          options={options}
          disabled={locked || loading}
          onChange={(v) => {
            const m = models.find((x) => `${x.provider}/${x.model}` === v);
            set({ provider: m?.provider ?? '', name: m?.model ?? '' });
          }}
        />
      )}
      {Object.entries(paramShape).map(([name, schema]) => (
        <ParamRow key={name} name={name} schema={schema} value={params[name]} locked={locked} onChange={(v) => setParam(name, v)} />
      ))}
    </div>
  );
}

function ParamRow({ name, schema, value, locked, onChange }: { name: string; schema: AnySchema; value: unknown; locked: boolean; onChange(v: unknown): void }) {
  const { t } = useInspectorT();
  const label = PARAM_NAMES.includes(name) ? t(`model.params.${name}`) : name;
  const u = unwrap(schema);
  const type = defOf(u.schema).type;
  if (type === 'number' || type === 'int') {
    const c = checksOf(schema);
    const min = c.min ?? 0;
    const max = c.max ?? 1;
    const step = c.int ? 1 : max - min > 10 ? 1 : 0.1;
    const on = typeof value === 'number';
    const fallback = Math.min(max, Math.max(min, c.int ? Math.min(4096, max) : (min + max) / 2));
    return (
      <div className={s.param} data-param={name}>
        <label className={s.inline}>
          <Switch size="sm" aria-label={t('model.enableParam', { name: label })} checked={on} disabled={locked} onCheckedChange={(v) => onChange(v ? fallback : undefined)} />
          {label}
        </label>
        <input
          type="range"
          className={s.range}
          aria-label={label}
          min={min}
          max={c.int ? Math.min(max, 32768) : max}
          step={step}
          value={on ? (value as number) : fallback}
          disabled={!on || locked}
          onChange={(e) => onChange(Number(e.target.value))}
        />
        <NumberInput aria-label={t('model.paramValue', { name: label })} value={on ? (value as number) : undefined} min={min} max={max} integer={c.int} disabled={!on} readOnly={locked} onChange={(v) => onChange(v ?? undefined)} />
      </div>
    );
  }
  if (type === 'array') {
    return (
      <div className={s.param} data-param={name}>
        <span className={s.inline}>{label}</span>
        <TagInput aria-label={label} value={Array.isArray(value) ? (value as string[]) : []} maxTags={checksOf(schema).maxLength ?? 4} maxTagLength={100} readOnly={locked} onChange={onChange} />
        <span />
      </div>
    );
  }
  const choices = enumValues(schema);
  if (choices) {
    return (
      <div className={s.param} data-param={name}>
        <span className={s.inline}>{label}</span>
        <RowSelect aria-label={label} value={str(value) || str(u.defaultValue) || choices[0]} options={choices.map((v) => ({ value: v, label: name === 'response_format' ? t(`model.formats.${v}`) : v }))} disabled={locked} onChange={onChange} />
        <span />
      </div>
    );
  }
  return null;
}
