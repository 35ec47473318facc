/**
 * /operation/system/plugin/detail?id=…: one installed package (super admins only): what its
 * manifest says (author, version, the Weft it needs, checksum), its node kinds and tools, whether it
 * runs here (or why not), the apps whose flows use its kinds, this tenant's credentials for it and
 * the versions installed over time.
 */
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useMemo } from 'react';
import { createPluginCredentials, deletePluginCredentials, getPlugin, getPluginCredentials, updatePluginCredentials } from '../../../api/plugins';
import { CredentialsSection, type CredentialsApi } from './credentials-section';
import { Badge, Card, Spinner, Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../ui';
import { useSession } from '../../session';
import { Page, PageHeader } from '../../shell/page';
import { formatDateTime, LoadFailed, NoPermission, PAGE_STYLE, useLoad } from '../users/admin-kit';
import s from './plugins.module.css';

export default function PluginDetailPage() {
  const { t } = useTranslation('system');
  const me = useSession((st) => st.user);
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  return (
    <Page style={PAGE_STYLE} data-testid="plugin-detail-page">
      <PageHeader title={t('plugins.detail.title')} description={id} />
      {me?.role === 'super_admin' ? <Detail id={id} /> : <NoPermission description={t('plugins.superAdminOnly')} />}
    </Page>
  );
}

function Detail({ id }: { id: string }) {
  const { t } = useTranslation(['system', 'common']);
  const loaded = useLoad((signal) => getPlugin(id, { signal, reaction: 'silent' }), [id]);
  const credentials = useMemo<CredentialsApi>(
    () => ({
      load: (signal) => getPluginCredentials(id, { signal, reaction: 'silent' }),
      save: (values, existing) => (existing ? updatePluginCredentials(id, values, { reaction: 'silent' }) : createPluginCredentials(id, values, { reaction: 'silent' })),
      remove: () => deletePluginCredentials(id),
    }),
    [id],
  );
  if (loaded.status === 'error') return <LoadFailed onRetry={loaded.reload} />;
  if (loaded.status !== 'ready') return <Spinner label={t('common:states.loading')} />;
  const p = loaded.data;
  const facts: [string, string][] = [
    [t('plugins.detail.name'), p.name],
    [t('plugins.columns.version'), p.version],
    [t('plugins.detail.author'), p.author || '—'],
    [t('plugins.detail.description'), p.description || '—'],
    [t('plugins.detail.minWeft'), p.min_weft_version],
    [t('plugins.detail.checksum'), p.checksum],
    [t('plugins.columns.installed'), `${p.installed_by} · ${formatDateTime(p.updated_at)}`],
  ];
  return (
    <div className={s.sections}>
      <Card className={s.install} data-testid="plugin-manifest">
        <div className={s.row}>
          <Badge variant={p.state === 'active' ? 'success' : 'danger'}>{t(`plugins.state.${p.state}`)}</Badge>
          {p.error && <span className={s.error}>{p.error}</span>}
        </div>
        <dl className={s.facts}>
          {facts.map(([k, v]) => (
            <div key={k}>
              <dt>{k}</dt>
              <dd className={k === t('plugins.detail.checksum') ? s.mono : undefined}>{v}</dd>
            </div>
          ))}
        </dl>
      </Card>
      <Card className={s.install}>
        <h2 className={s.title}>{t('plugins.columns.kinds')}</h2>
        <Table data-testid="plugin-kinds">
          <TableHeader>
            <TableRow>
              <TableHead>{t('plugins.detail.kind')}</TableHead>
              <TableHead>{t('plugins.detail.kindVersion')}</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {p.kinds.map((k) => (
              <TableRow key={k.kind}>
                <TableCell className={s.mono}>{k.kind}</TableCell>
                <TableCell>{k.version}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        <h2 className={s.title}>{t('plugins.detail.tools')}</h2>
        {p.tools.length ? (
          <ul>
            {p.tools.map((tool) => (
              <li key={tool.name}>
                <span className={s.mono}>{tool.name}</span> {tool.description}
              </li>
            ))}
          </ul>
        ) : (
          <p className={s.muted}>{t('plugins.detail.noTools')}</p>
        )}
      </Card>
      <Card className={s.install} data-testid="plugin-usage-list">
        <h2 className={s.title}>{t('plugins.detail.usage')}</h2>
        {p.usage.length ? (
          <ul>
            {p.usage.map((u) => (
              <li key={u.app_id}>
                {u.app_name} <span className={s.mono}>({u.kinds.join(', ')})</span>
              </li>
            ))}
          </ul>
        ) : (
          <p className={s.muted}>{t('plugins.detail.unused')}</p>
        )}
      </Card>
      <CredentialsSection schema={p.credentials_schema} api={credentials} />
      <Card className={s.install} data-testid="plugin-history">
        <h2 className={s.title}>{t('plugins.history.title')}</h2>
        {p.history.length ? (
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>{t('plugins.history.version')}</TableHead>
                <TableHead>{t('plugins.history.action')}</TableHead>
                <TableHead>{t('plugins.history.by')}</TableHead>
                <TableHead>{t('plugins.history.at')}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {p.history.map((v, i) => (
                <TableRow key={`${v.at}-${i}`}>
                  <TableCell className={s.mono}>{v.version}</TableCell>
                  <TableCell>{t(`plugins.history.actions.${v.action}`)}</TableCell>
                  <TableCell>{v.by}</TableCell>
                  <TableCell>{formatDateTime(v.at)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        ) : (
          <p className={s.muted}>{t('plugins.history.empty')}</p>
        )}
      </Card>
    </div>
  );
}
