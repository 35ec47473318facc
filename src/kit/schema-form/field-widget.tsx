/** The built-in widget of each field descriptor (SchemaForm's default renderer). */
import type { ReactElement, ReactNode } from 'react';
import type { FieldValues, UseFormReturn } from 'react-hook-form';
import { Input } from '../../ui/input';
import { Switch } from '../../ui/switch';
import { Textarea } from '../../ui/textarea';
import type { FieldDescriptor } from '../schema/fields';
import { valueLabel } from '../schema/value-label';
import { CodeEditor } from '../widgets/code-editor';
import { DateTimeInput, DateTimeText } from '../widgets/datetime-text';
import { FileUpload, type UploadedFile } from '../widgets/file-upload';
import { IconPicker } from '../widgets/icon-picker';
import type { IconValue } from '../widgets/icon-presets';
import { JsonEditor, JsonValueEditor } from '../widgets/json-editor';
import { MultiSelect } from '../widgets/multi-select';
import { NumberInput } from '../widgets/number-input';
import { SearchInput } from '../widgets/search-input';
import { SecretInput } from '../widgets/secret-input';
import { SelectInput } from '../widgets/select-input';
import { StatusBadge } from '../widgets/status-badge';
import { TagInput } from '../widgets/tag-input';
import { TAG_DEFAULTS } from '../widgets/tag-rules';
import s from './schema-form.module.css';

/** What a widget renderer gets for one field. */
export interface WidgetRenderProps {
  field: FieldDescriptor;
  value: unknown;
  onChange: (value: unknown) => void;
  onBlur: () => void;
  disabled: boolean;
  readOnly: boolean;
  invalid: boolean;
  /** Translated placeholder. */
  placeholder?: string;
  /** Translates a metadata key (see kit/i18n translateKey). */
  tk: (key: string | undefined, params?: Record<string, unknown>) => string;
  /** Extra props the screen gave this field (`widgetProps[name]`), e.g. `onReveal`, `upload`. */
  extra: Record<string, unknown>;
  form: UseFormReturn<FieldValues, unknown, FieldValues>;
}

/**
 * Renders a field's widget. Return one element (it receives the id and aria props of <Field>).
 * A custom widget (`widgets` prop) has the same shape.
 */
export type WidgetRenderer = (props: WidgetRenderProps) => ReactNode;

const str = (v: unknown) => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v));

/** The kit's renderer for the built-in widgets; null for a widget it does not know. */
export function renderBuiltinWidget(p: WidgetRenderProps): ReactElement | null {
  const { field: f, value, onChange, onBlur, disabled, readOnly, invalid, placeholder, tk, extra } = p;
  const common = { onBlur, disabled, readOnly, invalid };
  switch (f.widget) {
    case 'text':
      return (
        <Input
          value={str(value)}
          onChange={(e) => onChange(e.target.value)}
          onBlur={onBlur}
          disabled={disabled}
          readOnly={readOnly}
          invalid={invalid}
          placeholder={placeholder}
          autoComplete="off"
          {...extra}
        />
      );
    case 'textarea':
      return (
        <Textarea
          value={str(value)}
          onChange={(e) => onChange(e.target.value)}
          onBlur={onBlur}
          disabled={disabled}
          readOnly={readOnly}
          invalid={invalid}
          placeholder={placeholder}
          rows={f.meta.rows ?? 3}
          {...extra}
        />
      );
    case 'number':
      return (
        <NumberInput
          {...common}
          value={typeof value === 'number' ? value : undefined}
          onChange={onChange}
          min={f.checks.min}
          max={f.checks.max}
          integer={f.checks.int}
          placeholder={placeholder}
          {...extra}
        />
      );
    case 'switch':
      return <Switch checked={!!value} onCheckedChange={onChange} onBlur={onBlur} disabled={disabled || readOnly} {...extra} />;
    case 'select':
      return (
        <SelectInput
          {...common}
          value={value === undefined || value === null ? undefined : String(value)}
          onChange={onChange}
          options={(f.options ?? []).map((o) => ({ value: o.value, label: tk(o.label), disabled: o.disabled }))}
          placeholder={placeholder}
          clearable={f.optional || f.nullable}
          {...extra}
        />
      );
    case 'multi-select':
      return (
        <MultiSelect
          {...common}
          value={Array.isArray(value) ? (value as string[]) : []}
          onChange={onChange}
          options={(f.options ?? []).map((o) => ({ value: o.value, label: tk(o.label), disabled: o.disabled }))}
          placeholder={placeholder}
          {...extra}
        />
      );
    case 'tags':
      return (
        <TagInput
          {...common}
          value={Array.isArray(value) ? (value as string[]) : []}
          onChange={onChange}
          maxTags={f.meta.maxTags ?? f.checks.maxLength ?? TAG_DEFAULTS.maxTags}
          maxTagLength={f.meta.maxTagLength ?? f.itemChecks?.maxLength ?? TAG_DEFAULTS.maxTagLength}
          placeholder={placeholder}
          {...extra}
        />
      );
    case 'secret':
      return <SecretInput {...common} value={str(value)} onChange={onChange} placeholder={placeholder} {...extra} />;
    case 'code':
      return <CodeEditor {...common} value={str(value)} onChange={onChange} language={f.meta.language} placeholder={placeholder} {...extra} />;
    case 'json':
      return f.kind === 'string' ? (
        <JsonEditor {...common} value={str(value)} onChange={onChange} {...extra} />
      ) : (
        <JsonValueEditor {...common} value={value} onChange={onChange} {...extra} />
      );
    case 'file':
      return (
        <FileUpload
          {...common}
          value={Array.isArray(value) ? (value as UploadedFile[]) : []}
          onChange={onChange}
          accept={f.meta.accept}
          maxCount={f.meta.maxCount ?? f.checks.maxLength}
          maxMb={f.meta.maxMb}
          upload={(extra.upload as never) ?? (() => Promise.reject(new Error('No upload function given')))}
          {...extra}
        />
      );
    case 'icon':
      return <IconPicker {...common} value={(value ?? undefined) as IconValue | undefined} onChange={onChange} {...extra} />;
    case 'datetime':
      return readOnly ? (
        <span className={s.readOnlyValue} tabIndex={-1}>
          <DateTimeText value={value as string} />
        </span>
      ) : (
        <DateTimeInput {...common} value={value as string | undefined} onChange={onChange} {...extra} />
      );
    case 'search':
      return <SearchInput value={str(value)} onChange={onChange} disabled={disabled} placeholder={placeholder} debounceMs={f.meta.debounceMs} {...extra} />;
    case 'status':
      return (
        <span className={s.readOnlyValue} tabIndex={-1}>
          <StatusBadge value={value} label={valueLabel(tk, f.meta, value)} tones={f.meta.tones} />
        </span>
      );
    default:
      return null;
  }
}
