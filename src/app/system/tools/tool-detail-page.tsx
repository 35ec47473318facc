/**
 * /operation/system/tool/detail?id=provider/name: one tool, its parameters, and (for a plugin tool
 * that takes them) this tenant's credentials, which are its plugin's. Tenant and super admins.
 */
import { useMemo } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { deleteAdminToolCredentials, getAdminTool, getAdminToolCredentials, putAdminToolCredentials } from '../../../api/plugins';
import { Card, Spinner } from '../../../ui';
import { useSession } from '../../session';
import { Page, PageHeader } from '../../shell/page';
import { CredentialsSection, type CredentialsApi } from '../plugins/credentials-section';
import { LoadFailed, NoPermission, PAGE_STYLE, useLoad } from '../users/admin-kit';
import s from '../plugins/plugins.module.css';
import { ToolCredentialBadge, useToolDescription } from './tools-page';

export default function ToolDetailPage() {
  const { t } = useTranslation('system');
  const me = useSession((st) => st.user);
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const admin = me?.role === 'super_admin' || me?.role === 'tenant_admin';
  return (
    <Page style={PAGE_STYLE} data-testid="system-tool-detail-page">
      <PageHeader title={t('tools.detail.title')} description={id} />
      {admin ? <Detail id={id} /> : <NoPermission description={t('tools.adminOnly')} />}
    </Page>
  );
}

function Detail({ id }: { id: string }) {
  const { t } = useTranslation(['system', 'common']);
  const loaded = useLoad((signal) => getAdminTool(id, { signal, reaction: 'silent' }), [id]);
  const describe = useToolDescription();
  const credentials = useMemo<CredentialsApi>(
    () => ({
      load: (signal) => getAdminToolCredentials(id, { signal, reaction: 'silent' }),
      save: (values) => putAdminToolCredentials(id, values, { reaction: 'silent' }),
      remove: () => deleteAdminToolCredentials(id),
    }),
    [id],
  );
  if (loaded.status === 'error') return <LoadFailed onRetry={loaded.reload} />;
  if (loaded.status !== 'ready') return <Spinner label={t('common:states.loading')} />;
  const tool = loaded.data;
  return (
    <div className={s.sections}>
      <Card className={s.install} data-testid="tool-facts">
        <dl className={s.facts}>
          <div>
            <dt>{t('tools.columns.name')}</dt>
            <dd className={s.mono}>{tool.name}</dd>
          </div>
          <div>
            <dt>{t('tools.detail.provider')}</dt>
            <dd>
              {tool.plugin ? (
                <Link to={`/operation/system/plugin/detail?id=${encodeURIComponent(tool.plugin.id)}`}>{t('tools.source.plugin', { name: `${tool.plugin.name} ${tool.plugin.version}` })}</Link>
              ) : (
                t('tools.source.builtin')
              )}
            </dd>
          </div>
          <div>
            <dt>{t('tools.columns.description')}</dt>
            <dd>{describe(tool)}</dd>
          </div>
          <div>
            <dt>{t('tools.columns.credentials')}</dt>
            <dd>
              <ToolCredentialBadge tool={tool} />
            </dd>
          </div>
        </dl>
      </Card>
      <Card className={s.install}>
        <h2 className={s.title}>{t('tools.detail.parameters')}</h2>
        {tool.parameters ? <pre className={s.code}>{JSON.stringify(tool.parameters, null, 2)}</pre> : <p className={s.muted}>{t('tools.detail.noParameters')}</p>}
      </Card>
      {tool.source === 'plugin' && <CredentialsSection schema={tool.credentials_schema} api={credentials} testId="tool-credentials" />}
    </div>
  );
}
