import { Plus, X } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NumberInput } from '../../../kit/widgets/number-input';
import { Button, Checkbox, Field, Input, Label, Tabs, TabsList, TabsTrigger } from '../../../ui';
import { checkIdentifier, SEPARATORS, unescapeSeparator, type SegmentationForm } from './segmentation';
import s from './knowledge.module.css';

export interface SliceSettingsProps {
  value: SegmentationForm;
  onChange: (next: SegmentationForm) => void;
  /** Problems by field path (i18n keys of namespace knowledge, or spec sentences). */
  errors: Record<string, string>;
  /** Show the errors (after a first attempt to preview or save). */
  showErrors: boolean;
}

/**
 * The segmentation form: mode, lengths, separators (spec 9 presets and custom identifiers) and
 * text clean-up. Controlled; validation comes from `errors` (see segmentationErrors).
 */
export function SliceSettings({ value, onChange, errors, showErrors }: SliceSettingsProps) {
  const { t } = useTranslation(['knowledge', 'kit']);
  const [custom, setCustom] = useState('');
  const [customError, setCustomError] = useState<string | null>(null);
  const set = (patch: Partial<SegmentationForm>) => onChange({ ...value, ...patch });
  const err = (path: string) => {
    const m = showErrors ? errors[path] : undefined;
    if (!m) return undefined;
    return m.startsWith('slice.') ? t(m as 'slice.overlapTooLarge') : m === 'This form field is required!' ? t('kit:validation.required') : m;
  };

  const addCustom = () => {
    const problem = checkIdentifier(custom, value.custom.map((c) => unescapeSeparator(c.trim())));
    if (problem) return setCustomError(t(problem as 'slice.identifierEmpty'));
    set({ custom: [...value.custom, custom.trim()] });
    setCustom('');
    setCustomError(null);
  };

  return (
    <div className={s.stack} data-testid="slice-settings">
      <Tabs value={value.mode} onValueChange={(m) => set({ mode: m as SegmentationForm['mode'] })}>
        <TabsList variant="segmented" aria-label={t('slice.mode')}>
          <TabsTrigger value="general" data-testid="slice-mode-general">
            {t('method.general')}
          </TabsTrigger>
          <TabsTrigger value="parent_child" data-testid="slice-mode-parent">
            {t('method.parent_child')}
          </TabsTrigger>
        </TabsList>
      </Tabs>
      <p className={s.muted}>{value.mode === 'general' ? t('slice.generalHelp') : t('slice.parentHelp')}</p>
      <div className={s.formRow}>
        {value.mode === 'parent_child' && (
          <Field label={t('slice.parentMaxLength')} required error={err('parent_max_length')}>
            <NumberInput value={value.parent_max_length} onChange={(v) => set({ parent_max_length: v as number })} min={1} integer />
          </Field>
        )}
        <Field label={value.mode === 'parent_child' ? t('slice.childMaxLength') : t('slice.maxLength')} required error={err('max_length')}>
          <NumberInput value={value.max_length} onChange={(v) => set({ max_length: v as number })} min={1} integer />
        </Field>
        <Field label={t('slice.overlap')} required error={err('overlap')}>
          <NumberInput value={value.overlap} onChange={(v) => set({ overlap: v as number })} min={0} integer />
        </Field>
      </div>
      <fieldset className={s.stack} style={{ border: 0, padding: 0, margin: 0 }}>
        <legend className={s.panelTitle}>{t('slice.separators')}</legend>
        <div className={s.chips}>
          {SEPARATORS.map((sep) => {
            const on = value.separators.includes(sep.value);
            return (
              <label key={sep.label} className={s.chip} data-checked={on}>
                <Checkbox
                  checked={on}
                  onCheckedChange={(c) => set({ separators: c ? [...value.separators, sep.value] : value.separators.filter((x) => x !== sep.value) })}
                />
                {t(sep.label as 'slice.sep.newline')}
              </label>
            );
          })}
        </div>
        {err('separators') && <span className={s.errorText}>{err('separators')}</span>}
        <div className={s.chips}>
          {value.custom.map((c, i) => (
            <span key={`${i}-${c}`} className={s.chip} data-checked="true" data-testid="slice-custom">
              <code>{c}</code>
              <button type="button" className={s.chipRemove} aria-label={t('slice.removeIdentifier', { value: c })} onClick={() => set({ custom: value.custom.filter((_, j) => j !== i) })}>
                <X size={12} aria-hidden="true" />
              </button>
              {err(`custom.${i}`) && <span className={s.errorText}>{err(`custom.${i}`)}</span>}
            </span>
          ))}
        </div>
        <Field label={t('slice.customIdentifier')} help={t('slice.customHelp')} error={customError}>
          <Input
            value={custom}
            placeholder="##"
            data-testid="slice-custom-input"
            onChange={(e) => {
              setCustom(e.target.value);
              setCustomError(null);
            }}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                addCustom();
              }
            }}
            suffix={
              <Button type="button" size="sm" variant="ghost" iconOnly aria-label={t('slice.addIdentifier')} onClick={addCustom}>
                <Plus aria-hidden="true" />
              </Button>
            }
          />
        </Field>
      </fieldset>
      <div className={s.stack}>
        <Label className={s.inline}>
          <Checkbox checked={value.remove_extra_spaces} onCheckedChange={(c) => set({ remove_extra_spaces: c === true })} />
          {t('slice.removeSpaces')}
        </Label>
        <Label className={s.inline}>
          <Checkbox checked={value.remove_urls_emails} onCheckedChange={(c) => set({ remove_urls_emails: c === true })} />
          {t('slice.removeUrls')}
        </Label>
      </div>
    </div>
  );
}
