import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { describeError } from '../../../api/reactions';
import { Button, Dialog, DialogBody, DialogContent, DialogFooter, DialogHeader, DialogTitle, Field, Textarea } from '../../../ui';
import s from './knowledge.module.css';

export interface TextField {
  name: string;
  label: string;
  max: number;
  rows?: number;
}

export interface TextDialogProps {
  open: boolean;
  title: string;
  fields: readonly TextField[];
  initial: Record<string, string>;
  onClose: () => void;
  /** Saves; a rejection shows under the form and keeps the dialog open. */
  onSubmit: (values: Record<string, string>) => Promise<unknown>;
}

/** A small dialog of required text areas (segment content, a Q&A pair) with length limits. */
export function TextDialog({ open, title, fields, initial, onClose, onSubmit }: TextDialogProps) {
  const { t } = useTranslation(['knowledge', 'common', 'kit']);
  const [values, setValues] = useState<Record<string, string>>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!open) return;
    setValues(initial);
    setErrors({});
    setFailure(null);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);

  const submit = async () => {
    const next: Record<string, string> = {};
    for (const f of fields) {
      const v = (values[f.name] ?? '').trim();
      if (!v) next[f.name] = t('kit:validation.required');
      else if (v.length > f.max) next[f.name] = t('kit:validation.maxLength', { max: f.max });
    }
    setErrors(next);
    if (Object.keys(next).length) return;
    setSaving(true);
    setFailure(null);
    try {
      await onSubmit(Object.fromEntries(fields.map((f) => [f.name, (values[f.name] ?? '').trim()])));
      onClose();
    } catch (e) {
      setFailure(describeError(e, 'silent')?.text ?? t('common:states.empty'));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog open={open} onOpenChange={(o) => !o && onClose()}>
      <DialogContent size="lg" closeLabel={t('common:actions.close')} data-testid="text-dialog">
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
        </DialogHeader>
        <DialogBody className={s.stack}>
          {fields.map((f) => (
            <Field key={f.name} label={f.label} required error={errors[f.name]} help={`${(values[f.name] ?? '').length}/${f.max}`}>
              <Textarea rows={f.rows ?? 4} value={values[f.name] ?? ''} data-testid={`text-${f.name}`} onChange={(e) => setValues((v) => ({ ...v, [f.name]: e.target.value }))} />
            </Field>
          ))}
          {failure && (
            <p role="alert" className={s.errorText}>
              {failure}
            </p>
          )}
        </DialogBody>
        <DialogFooter>
          <Button variant="secondary" onClick={onClose}>
            {t('common:actions.cancel')}
          </Button>
          <Button variant="primary" loading={saving} onClick={() => void submit()} data-testid="text-save">
            {t('common:actions.save')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
