import { CircleCheck, CircleX, PlugZap } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { credentialSchemaOf, CredentialsValidateBody, CustomModelBody, type CredentialsTestResult, type ModelProvider } from '../../../../schemas/model';
import { SchemaForm, useSchemaForm } from '../../../kit/schema-form';
import { Button } from '../../../ui/button';
import { Dialog, DialogBody, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../../../ui/dialog';
import { Field } from '../../../ui/field';
import { Input } from '../../../ui/input';
import { Select } from '../../../ui/select';
import { toast } from '../../../ui/toast';
import { reportError } from '../users/admin-kit';
import { useModelAdminApi } from './model-api';
import s from './models-page.module.css';

/** The model types the credentials test knows how to try. */
const TEST_TYPES = CredentialsValidateBody.shape.model_type.unwrap().options;
type TestType = (typeof TEST_TYPES)[number];

interface ProviderDialogProps {
  /** null: closed. */
  provider: ModelProvider | null;
  onClose: () => void;
  onSaved: () => void;
}

/**
 * Credentials of a provider: the form comes from the protocol's zod schema (schemas/model.ts). The
 * saved key shows masked; a mask sent back keeps it. "Test connection" sends the form's values to
 * the server, which makes a tiny real request to the provider.
 */
export function CredentialsDialog({ provider, onClose, onSaved }: ProviderDialogProps) {
  const { t } = useTranslation(['models', 'common']);
  return (
    <Dialog open={provider !== null} onOpenChange={(o) => !o && onClose()}>
      <DialogContent size="md" closeLabel={t('common:actions.close')}>
        <DialogHeader>
          <DialogTitle>{t('credentials.title', { name: provider?.label ?? '' })}</DialogTitle>
          <DialogDescription>{t('credentials.description')}</DialogDescription>
        </DialogHeader>
        <DialogBody>{provider && <CredentialsForm key={provider.provider} provider={provider} onClose={onClose} onSaved={onSaved} />}</DialogBody>
      </DialogContent>
    </Dialog>
  );
}

function CredentialsForm({ provider, onClose, onSaved }: { provider: ModelProvider; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation(['models', 'common']);
  const api = useModelAdminApi();
  const schema = credentialSchemaOf(provider.protocol);
  const [saved, setSaved] = useState<{ base_url: string; api_key: string } | null>(null);
  const [testModel, setTestModel] = useState('');
  // 'auto': the server tries the named model as the type it has (a tts model speaks, an stt one listens).
  const [testType, setTestType] = useState<TestType | 'auto'>('auto');
  const [testing, setTesting] = useState(false);
  const [result, setResult] = useState<CredentialsTestResult | null>(null);
  const form = useSchemaForm(schema, {
    defaultValues: { base_url: provider.default_base_url || undefined },
    values: saved ?? undefined,
  });

  // The saved (masked) credentials fill the form when they arrive.
  useEffect(() => {
    if (!provider.configured) return;
    let live = true;
    api.getCredentials(provider.provider).then((c) => live && c.credentials && setSaved(c.credentials), reportError);
    return () => {
      live = false;
    };
  }, [api, provider]);

  const values = () => Object.fromEntries(Object.entries(form.form.getValues() as Record<string, unknown>).filter(([, v]) => typeof v === 'string' && v !== '')) as Record<string, string>;

  const test = async () => {
    setTesting(true);
    setResult(null);
    try {
      setResult(
        await api.validateCredentials(provider.provider, { credentials: values(), model: testModel.trim() || undefined, model_type: testType === 'auto' ? undefined : testType }),
      );
    } catch (e) {
      reportError(e);
    } finally {
      setTesting(false);
    }
  };

  return (
    <div className={s.dialogStack}>
      <SchemaForm
        form={form}
        ns="models"
        overrides={provider.credential_fields.some((f) => f.name === 'base_url' && f.required) ? { base_url: { help: 'models:fields.baseUrlPlaceholder' } } : undefined}
        onCancel={onClose}
        onSubmit={async () => {
          await api.saveCredentials(provider.provider, values());
          toast.success(t('credentials.saved'));
          onSaved();
        }}
        actions={
          <Button type="button" variant="secondary" icon={<PlugZap aria-hidden="true" />} loading={testing} onClick={test}>
            {testing ? t('credentials.testing') : t('credentials.test')}
          </Button>
        }
      />
      <Field label={t('credentials.testModel')}>
        <Input value={testModel} placeholder={t('credentials.testModelPlaceholder')} onChange={(e) => setTestModel(e.target.value)} />
      </Field>
      <Field label={t('credentials.testType')}>
        <Select
          size="sm"
          value={testType}
          onValueChange={(v) => setTestType(v as TestType | 'auto')}
          options={[
            { value: 'auto', label: t('credentials.testTypeAuto') },
            ...TEST_TYPES.filter((x) => provider.supported_model_types.includes(x)).map((x) => ({ value: x, label: t(`types.${x}`) })),
          ]}
        />
      </Field>
      {result && (
        <p role="status" className={result.ok ? s.testOk : s.testFailed}>
          {result.ok ? <CircleCheck aria-hidden="true" size={14} /> : <CircleX aria-hidden="true" size={14} />}
          {result.ok
            ? t('credentials.testOk', { ms: result.elapsed_ms })
            : t('credentials.testFailed', { message: result.error_code ? `${t(`errors.${result.error_code}`)} (${result.message ?? ''})` : (result.message ?? '') })}
        </p>
      )}
    </div>
  );
}

/** Adds a model the catalogue does not list (a local server's model, a new release). */
export function CustomModelDialog({ provider, onClose, onSaved }: ProviderDialogProps) {
  const { t } = useTranslation(['models', 'common']);
  const api = useModelAdminApi();
  return (
    <Dialog open={provider !== null} onOpenChange={(o) => !o && onClose()}>
      <DialogContent size="md" closeLabel={t('common:actions.close')}>
        <DialogHeader>
          <DialogTitle>{t('custom.title', { name: provider?.label ?? '' })}</DialogTitle>
        </DialogHeader>
        <DialogBody>
          {provider && (
            <SchemaForm
              schema={CustomModelBody}
              ns="models"
              overrides={{ model_type: { options: provider.supported_model_types.map((v) => ({ value: v, label: `models:types.${v}` })) } }}
              onCancel={onClose}
              onSubmit={async (v) => {
                await api.addCustomModel(provider.provider, v);
                toast.success(t('custom.added'));
                onSaved();
              }}
            />
          )}
        </DialogBody>
      </DialogContent>
    </Dialog>
  );
}
