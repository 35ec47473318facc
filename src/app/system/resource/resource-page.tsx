/**
 * /operation/system/resource: what this server holds and how busy it is (super admins only: the
 * figures cover every tenant). Read when the page opens and on Refresh; nothing polls.
 */
import { RefreshCw } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { SystemResource } from '../../../../schemas/system-resource';
import { getSystemResource } from '../../../api/plugins';
import { Button, Card, Spinner } from '../../../ui';
import { useSession } from '../../session';
import { Page, PageHeader } from '../../shell/page';
import { formatDateTime, LoadFailed, NoPermission, PAGE_STYLE, useLoad } from '../users/admin-kit';
import s from '../plugins/plugins.module.css';

/** 1536 → "1.5 KB" (binary units, as memory and disks are counted). */
export function formatBytes(n: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let v = n;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${i === 0 ? v : v.toFixed(1)} ${units[i]}`;
}

/** 93784 → "1d 2h 3m" (the largest three units that are not zero up front). */
export function formatDuration(seconds: number): string {
  const d = Math.floor(seconds / 86400);
  const h = Math.floor((seconds % 86400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  return d ? `${d}d ${h}h ${m}m` : h ? `${h}h ${m}m` : `${m}m ${Math.floor(seconds % 60)}s`;
}

export default function ResourcePage() {
  const { t } = useTranslation('system');
  const me = useSession((st) => st.user);
  return (
    <Page style={PAGE_STYLE} data-testid="system-resource-page">
      {me?.role === 'super_admin' ? <Resources /> : (
        <>
          <PageHeader title={t('resource.title')} description={t('resource.description')} />
          <NoPermission description={t('resource.superAdminOnly')} />
        </>
      )}
    </Page>
  );
}

function Figure({ title, value, detail, testId }: { title: string; value: ReactNode; detail?: ReactNode; testId: string }) {
  return (
    <Card className={s.figure} data-testid={testId}>
      <span className={s.muted}>{title}</span>
      <span className={s.figureValue}>{value}</span>
      {detail && <span className={s.muted}>{detail}</span>}
    </Card>
  );
}

function Resources() {
  const { t } = useTranslation(['system', 'common']);
  const loaded = useLoad((signal) => getSystemResource({ signal, reaction: 'silent' }), []);
  const header = (r?: SystemResource) => (
    <PageHeader
      title={t('resource.title')}
      description={r ? `${t('resource.description')} ${t('resource.checkedAt', { at: formatDateTime(r.checked_at) })}` : t('resource.description')}
      actions={
        <Button variant="secondary" onClick={loaded.reload} data-testid="resource-refresh">
          <RefreshCw size={14} aria-hidden /> {t('resource.refresh')}
        </Button>
      }
    />
  );
  if (loaded.status === 'error') return (<>{header()}<LoadFailed onRetry={loaded.reload} /></>);
  if (loaded.status !== 'ready') return (<>{header()}<Spinner label={t('common:states.loading')} /></>);
  const r = loaded.data;
  const p = r.process;
  return (
    <>
      {header(r)}
      <div className={s.figures}>
        <Figure testId="resource-database" title={t('resource.database')} value={formatBytes(r.database.size_bytes)} detail={t(`resource.databaseKind.${r.database.kind}`)} />
        <Figure testId="resource-files" title={t('resource.files')} value={formatBytes(r.files.size_bytes)} detail={t('resource.filesCount', { count: r.files.count })} />
        <Figure testId="resource-queue" title={t('resource.queue')} value={t('resource.queueFigures', r.knowledge_queue)} detail={t('resource.busyWorkers', { count: r.knowledge_queue.busy_workers })} />
        <Figure testId="resource-sandbox" title={t('resource.sandbox')} value={t('resource.sandboxFigures', r.sandbox)} />
        <Figure
          testId="resource-providers"
          title={t('resource.providers')}
          value={r.model_providers.length || '—'}
          detail={r.model_providers.length ? r.model_providers.map((m) => `${m.provider} (${t('resource.providerTenants', { count: m.tenants })})`).join(', ') : t('resource.noProviders')}
        />
        <Figure testId="resource-plugins" title={t('resource.plugins')} value={r.plugins.installed} detail={t('resource.pluginFigures', r.plugins)} />
        <Figure
          testId="resource-memory"
          title={t('resource.memory')}
          value={formatBytes(p.rss_bytes)}
          detail={t('resource.memoryFigures', { rss: formatBytes(p.rss_bytes), heapUsed: formatBytes(p.heap_used_bytes), heapTotal: formatBytes(p.heap_total_bytes) })}
        />
        <Figure
          testId="resource-uptime"
          title={t('resource.uptime')}
          value={formatDuration(p.uptime_seconds)}
          detail={t('resource.hostFigures', { node: p.node_version, cpus: p.cpus, load: p.load_average.join(' / '), free: formatBytes(p.system_free_bytes), total: formatBytes(p.system_memory_bytes) })}
        />
      </div>
    </>
  );
}
