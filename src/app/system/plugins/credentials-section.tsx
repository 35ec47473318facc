/**
 * A plugin's (or a plugin tool's) credentials for the signed-in admin's tenant, as a form drawn by
 * the kit from the plugin's JSON Schema. Secrets come back masked and stay masked: sent back as
 * they are, the server keeps the stored value. Used by the plugin detail page and the tool detail
 * page (whose credentials are its plugin's).
 */
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PluginCredentials } from '../../../../schemas/plugin-credentials';
import { SchemaForm } from '../../../kit/schema-form';
import { zodFromJsonSchema } from '../../../kit/schema-form/json-schema';
import { Badge, Button, Card, ConfirmDialog, Spinner, toast } from '../../../ui';
import { formatDateTime, LoadFailed, useLoad } from '../users/admin-kit';
import s from './plugins.module.css';

type Values = Record<string, string | number | boolean | null>;

export interface CredentialsApi {
  load(signal: AbortSignal): Promise<PluginCredentials | null>;
  /** Saves new values (`existing`: some are stored, so this is a change). */
  save(values: Values, existing: boolean): Promise<unknown>;
  remove(): Promise<unknown>;
}

export function CredentialsSection({ schema, api, testId = 'plugin-credentials' }: { schema: Record<string, unknown> | null; api: CredentialsApi; testId?: string }) {
  const { t, i18n } = useTranslation(['system', 'common']);
  const loaded = useLoad((signal) => api.load(signal), [api]);
  const [removing, setRemoving] = useState(false);
  const form = useMemo(() => (schema ? zodFromJsonSchema(schema, i18n.language) : null), [schema, i18n.language]);
  return (
    <Card className={s.install} data-testid={testId}>
      <div className={s.row}>
        <h2 className={s.title}>{t('plugins.credentials.title')}</h2>
        {form && loaded.status === 'ready' && <Badge variant={loaded.data ? 'success' : 'neutral'}>{loaded.data ? t('plugins.credentials.set') : t('plugins.credentials.unset')}</Badge>}
      </div>
      {!form ? (
        <p className={s.muted}>{t('plugins.credentials.none')}</p>
      ) : loaded.status === 'error' ? (
        <LoadFailed onRetry={loaded.reload} />
      ) : loaded.status !== 'ready' ? (
        <Spinner label={t('common:states.loading')} />
      ) : (
        <>
          <p className={s.muted}>
            {t('plugins.credentials.help')}
            {loaded.data && ` ${t('plugins.credentials.updated', { by: loaded.data.updated_by, at: formatDateTime(loaded.data.updated_at) })}`}
          </p>
          <SchemaForm
            key={loaded.data?.updated_at ?? 'new'}
            schema={form}
            layout="horizontal"
            labelWidth={140}
            defaultValues={(loaded.data?.values ?? {}) as never}
            // The server checks `{ values }` against the plugin's schema: its issues name `values/<field>`.
            serverPath="values"
            submitLabel={t('plugins.credentials.save')}
            actions={
              loaded.data ? (
                <Button type="button" variant="secondary" onClick={() => setRemoving(true)}>
                  {t('plugins.credentials.delete')}
                </Button>
              ) : undefined
            }
            onSubmit={async (v) => {
              await api.save(v as Values, !!loaded.data);
              toast.success(t('plugins.credentials.saved'));
              loaded.reload();
            }}
          />
        </>
      )}
      {removing && (
        <ConfirmDialog
          open
          danger
          onOpenChange={(open) => !open && setRemoving(false)}
          title={t('plugins.credentials.deleteTitle')}
          description={t('plugins.credentials.deleteText')}
          onConfirm={async () => {
            await api.remove();
            toast.success(t('plugins.credentials.deleted'));
            setRemoving(false);
            loaded.reload();
          }}
        />
      )}
    </Card>
  );
}
