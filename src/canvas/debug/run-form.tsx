import { useTranslation } from 'react-i18next';
import { FileUpload } from '../../kit/widgets/file-upload';
import { NumberInput } from '../../kit/widgets/number-input';
import { SelectInput } from '../../kit/widgets/select-input';
import { Field } from '../../ui/field';
import { Input } from '../../ui/input';
import { Textarea } from '../../ui/textarea';
import type { DebugApi } from './debug-api';
import type { RunField, RunFormFile, RunFormValues } from './start-fields';
import s from './debug.module.css';

export interface RunFormProps {
  fields: readonly RunField[];
  values: RunFormValues;
  onChange: (values: RunFormValues) => void;
  /** Names of required fields shown as missing. */
  missing?: readonly string[];
  upload: DebugApi['upload'];
  disabled?: boolean;
}

/**
 * The start node's fields as a form, one kit widget per field type (text, paragraph, select,
 * number, file, file list). The labels are the builder's own words, shown as written.
 */
export function RunForm({ fields, values, onChange, missing = [], upload, disabled }: RunFormProps) {
  const { t } = useTranslation('debug');
  if (!fields.length) return <p className={s.muted}>{t('inputs.none')}</p>;
  const set = (name: string, v: unknown) => onChange({ ...values, [name]: v });
  return (
    <div className={s.form} data-testid="run-form">
      {fields.map((f) => {
        const label = f.label || f.name;
        const error = missing.includes(f.name) ? t('inputs.required', { name: label }) : undefined;
        const v = values[f.name];
        return (
          <Field key={f.name} label={label} required={f.required} error={error} data-testid={`run-field-${f.name}`}>
            {f.type === 'paragraph' ? (
              <Textarea rows={3} value={typeof v === 'string' ? v : ''} disabled={disabled} maxLength={f.max_length} onChange={(e) => set(f.name, e.target.value)} />
            ) : f.type === 'number' ? (
              <NumberInput value={typeof v === 'number' ? v : null} disabled={disabled} onChange={(n) => set(f.name, n ?? undefined)} />
            ) : f.type === 'select' ? (
              <SelectInput
                value={typeof v === 'string' ? v : null}
                disabled={disabled}
                clearable={!f.required}
                placeholder={t('inputs.choose')}
                options={f.options.map((o) => ({ value: o, label: o }))}
                onChange={(o) => set(f.name, o ?? undefined)}
              />
            ) : f.type === 'file' || f.type === 'file-list' ? (
              <FileUpload
                value={(Array.isArray(v) ? v : []) as RunFormFile[]}
                onChange={(files) => set(f.name, files)}
                upload={upload}
                maxCount={f.type === 'file' ? 1 : f.max_files}
                accept={f.allowed_extensions.length ? f.allowed_extensions.map((e) => (e.startsWith('.') ? e : `.${e}`)) : undefined}
                disabled={disabled}
              />
            ) : (
              <Input value={typeof v === 'string' ? v : ''} disabled={disabled} maxLength={f.max_length} onChange={(e) => set(f.name, e.target.value)} />
            )}
          </Field>
        );
      })}
    </div>
  );
}
