/**
 * /operation/system/model (spec 2 system area, 7.4 models): the tenant's model providers. Admins set
 * up a provider's credentials (and test them), enable or disable its models, add custom models,
 * and pick the default model of each type. Super admins and tenant admins only (spec 6).
 */
import { Boxes, KeyRound, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MODEL_TYPES, type Model, type ModelProvider, type ModelType } from '../../../../schemas/model';
import { Badge } from '../../../ui/badge';
import { Button } from '../../../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../ui/card';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { EmptyState } from '../../../ui/empty-state';
import { Select } from '../../../ui/select';
import { Skeleton } from '../../../ui/skeleton';
import { Switch } from '../../../ui/switch';
import { toast } from '../../../ui/toast';
import { useSession } from '../../session';
import { Page, PageHeader } from '../../shell/page';
import { LoadFailed, NoPermission, PAGE_STYLE, reportError, useLoad } from '../users/admin-kit';
import { CredentialsDialog, CustomModelDialog } from './model-dialogs';
import { useModelAdminApi } from './model-api';
import s from './models-page.module.css';

export default function ModelsPage() {
  const { t } = useTranslation(['models', 'common']);
  const me = useSession((st) => st.user);
  const allowed = me?.role === 'super_admin' || me?.role === 'tenant_admin';
  return (
    <Page style={PAGE_STYLE} data-slot="system-models-page">
      <PageHeader title={t('page.title')} description={t('page.description')} />
      {allowed ? <ModelsScreen /> : <NoPermission description={t('page.noPermission')} />}
    </Page>
  );
}

function ModelsScreen() {
  const { t } = useTranslation(['models', 'common']);
  const api = useModelAdminApi();
  // Bumped by every change that can alter what is available (credentials, models).
  const [version, setVersion] = useState(0);
  const changed = () => setVersion((v) => v + 1);
  const providers = useLoad(() => api.listProviders(), [api, version]);
  const [editing, setEditing] = useState<ModelProvider | null>(null);
  const [adding, setAdding] = useState<ModelProvider | null>(null);

  return (
    <div className={s.screen}>
      <DefaultModels version={version} />
      <section aria-labelledby="model-providers-title" className={s.section}>
        <h2 id="model-providers-title" className={s.sectionTitle}>
          {t('list.title')}
        </h2>
        {providers.status === 'error' && !providers.data ? (
          <LoadFailed onRetry={providers.reload} />
        ) : !providers.data ? (
          <div aria-busy="true" aria-label={t('list.title')} className={s.grid}>
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} style={{ height: 96 }} />
            ))}
          </div>
        ) : (
          <div className={s.grid}>
            {providers.data.map((p) => (
              <ProviderCard key={p.provider} provider={p} version={version} onEdit={() => setEditing(p)} onAddModel={() => setAdding(p)} onChanged={changed} />
            ))}
          </div>
        )}
      </section>
      <CredentialsDialog
        provider={editing}
        onClose={() => setEditing(null)}
        onSaved={() => {
          setEditing(null);
          changed();
        }}
      />
      <CustomModelDialog
        provider={adding}
        onClose={() => setAdding(null)}
        onSaved={() => {
          setAdding(null);
          changed();
        }}
      />
    </div>
  );
}

/** One select per model type over the available models; choosing one saves it at once. */
function DefaultModels({ version }: { version: number }) {
  const { t } = useTranslation(['models', 'common']);
  const api = useModelAdminApi();
  const [saved, setSaved] = useState(0);
  const data = useLoad(async () => {
    const [defaults, ...available] = await Promise.all([api.listDefaults(), ...MODEL_TYPES.map((m) => api.listAvailable(m))]);
    return { defaults, available: Object.fromEntries(MODEL_TYPES.map((m, i) => [m, available[i]])) as Record<ModelType, Awaited<ReturnType<typeof api.listAvailable>>> };
  }, [api, version, saved]);

  const choose = async (modelType: ModelType, value: string) => {
    const [provider, ...rest] = value.split('/');
    try {
      await api.setDefault({ model_type: modelType, provider, model: rest.join('/') });
      toast.success(t('defaults.saved'));
      setSaved((n) => n + 1);
    } catch (e) {
      reportError(e);
    }
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('defaults.title')}</CardTitle>
        <CardDescription>{t('defaults.description')}</CardDescription>
      </CardHeader>
      <CardContent className={s.defaults}>
        {data.status === 'error' && !data.data ? (
          <LoadFailed onRetry={data.reload} />
        ) : (
          MODEL_TYPES.map((type) => {
            const current = data.data?.defaults.find((d) => d.model_type === type)?.default;
            const options = (data.data?.available[type] ?? []).flatMap((p) => p.models.map((m) => ({ value: `${p.provider}/${m.model}`, label: `${p.label} / ${m.label}` })));
            return (
              <label key={type} className={s.defaultRow}>
                <span className={s.defaultLabel}>{t(`types.${type}`)}</span>
                <Select
                  aria-label={t('defaults.select', { type: t(`types.${type}`) })}
                  options={options}
                  value={current ? `${current.provider}/${current.model}` : ''}
                  // No tts model: the built-in offline voice speaks (src/server/speech).
                  placeholder={!data.data ? '…' : type === 'tts' ? t('defaults.offlineVoice') : options.length ? t('defaults.none') : t('defaults.noModels')}
                  disabled={!data.data || options.length === 0}
                  onValueChange={(v) => choose(type, v)}
                />
              </label>
            );
          })
        )}
      </CardContent>
    </Card>
  );
}

interface ProviderCardProps {
  provider: ModelProvider;
  version: number;
  onEdit: () => void;
  onAddModel: () => void;
  onChanged: () => void;
}

function ProviderCard({ provider, version, onEdit, onAddModel, onChanged }: ProviderCardProps) {
  const { t } = useTranslation(['models', 'common']);
  const api = useModelAdminApi();
  const [open, setOpen] = useState(false);
  const [removing, setRemoving] = useState(false);
  const models = useLoad(() => api.listModels(provider.provider), [api, provider.provider, version]);
  const count = models.data?.length ?? 0;

  return (
    <Card data-testid={`provider-${provider.provider}`} aria-label={provider.label} role="group">
      <CardHeader className={s.providerHeader}>
        <div>
          <CardTitle>
            {provider.label}{' '}
            <Badge variant={provider.configured ? 'success' : 'neutral'} dot>
              {provider.configured ? t('list.configured') : t('list.notConfigured')}
            </Badge>
          </CardTitle>
          <CardDescription>{t(provider.description as 'providers.openai')}</CardDescription>
          <div className={s.tags}>
            {provider.supported_model_types.map((m) => (
              <Badge key={m} appearance="outline">
                {t(`types.${m}`)}
              </Badge>
            ))}
          </div>
        </div>
        <div className={s.actions}>
          <Button size="sm" variant={provider.configured ? 'secondary' : 'primary'} icon={<KeyRound aria-hidden="true" />} onClick={onEdit} aria-label={`${provider.configured ? t('list.editCredentials') : t('list.setup')} ${provider.label}`}>
            {provider.configured ? t('list.editCredentials') : t('list.setup')}
          </Button>
          {provider.configured && (
            <Button size="sm" variant="ghost" icon={<Trash2 aria-hidden="true" />} onClick={() => setRemoving(true)} aria-label={`${t('list.removeCredentials')} ${provider.label}`}>
              {t('list.removeCredentials')}
            </Button>
          )}
          <Button size="sm" variant="ghost" icon={<Boxes aria-hidden="true" />} aria-expanded={open} onClick={() => setOpen((o) => !o)}>
            {open ? t('list.hideModels') : t('list.showModels', { count })}
          </Button>
        </div>
      </CardHeader>
      {open && (
        <CardContent>
          <ModelList provider={provider} models={models.data} onChanged={onChanged} />
          <Button size="sm" variant="secondary" icon={<Plus aria-hidden="true" />} onClick={onAddModel} className={s.addModel}>
            {t('list.addCustom')}
          </Button>
        </CardContent>
      )}
      <ConfirmDialog
        open={removing}
        onOpenChange={setRemoving}
        danger
        title={t('list.removeTitle', { name: provider.label })}
        description={t('list.removeDescription')}
        confirmLabel={t('common:actions.remove')}
        cancelLabel={t('common:actions.cancel')}
        onConfirm={async () => {
          try {
            await api.deleteCredentials(provider.provider);
            toast.success(t('list.removed'));
            onChanged();
          } catch (e) {
            reportError(e);
            throw e;
          }
        }}
      />
    </Card>
  );
}

function ModelList({ provider, models, onChanged }: { provider: ModelProvider; models: Model[] | undefined; onChanged: () => void }) {
  const { t } = useTranslation(['models', 'common']);
  const api = useModelAdminApi();
  const [deleting, setDeleting] = useState<Model | null>(null);
  if (!models) return <Skeleton style={{ height: 64 }} />;
  if (models.length === 0) return <EmptyState title={t('list.noModels')} />;

  const toggle = async (m: Model, enabled: boolean) => {
    try {
      await api.setModelEnabled(provider.provider, { model: m.model, model_type: m.model_type }, enabled);
      onChanged();
    } catch (e) {
      reportError(e);
    }
  };

  return (
    <>
      <ul className={s.models} aria-label={t('list.showModels', { count: models.length })}>
        {models.map((m) => (
          <li key={`${m.model_type}/${m.model}`} className={s.modelRow}>
            <Switch size="sm" checked={m.enabled} onCheckedChange={(v) => toggle(m, v)} aria-label={t('list.enable', { name: m.label })} />
            <span className={s.modelName}>{m.label}</span>
            {m.label !== m.model && <code className={s.modelId}>{m.model}</code>}
            <Badge appearance="outline">{t(`types.${m.model_type}`)}</Badge>
            {m.features.map((f) => (
              <Badge key={f} variant="info">
                {t(`features.${f}`)}
              </Badge>
            ))}
            {m.context_size > 0 && <span className={s.muted}>{t('list.contextSize', { size: m.context_size.toLocaleString() })}</span>}
            {m.fetch_from === 'custom' && (
              <>
                <Badge variant="primary">{t('list.custom')}</Badge>
                <Button size="sm" variant="ghost" iconOnly icon={<Trash2 aria-hidden="true" />} aria-label={t('list.deleteCustom', { name: m.label })} onClick={() => setDeleting(m)} />
              </>
            )}
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(o) => !o && setDeleting(null)}
        danger
        title={t('list.deleteCustomTitle', { name: deleting?.label ?? '' })}
        confirmLabel={t('common:actions.delete')}
        cancelLabel={t('common:actions.cancel')}
        onConfirm={async () => {
          if (!deleting) return;
          try {
            await api.deleteCustomModel(provider.provider, { model: deleting.model, model_type: deleting.model_type });
            toast.success(t('list.deleted'));
            onChanged();
          } catch (e) {
            reportError(e);
            throw e;
          }
        }}
      />
    </>
  );
}
