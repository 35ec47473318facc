/**
 * /operation/store/{app,knowledge,prompt,tool,plugin}/:id: one released store item (spec 2; issue 23). The head
 * (icon, name, kind, tags, description, who published it from which space, when, copies), the
 * type-specific parts (./store-detail-parts.tsx) and the copy dialog. An item of another tenant, not
 * released, or gone shows the "does not exist" state with the id and a way back to the store.
 */
import { ArrowLeft, Copy, Download, FileDown } from 'lucide-react';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useParams } from 'react-router';
import type { StoreItemDetail, StoreItemType } from '../../../schemas/store';
import { installPluginFromStore } from '../../api/plugins';
import { formatDateTime } from '../../kit/widgets/datetime';
import { Badge, Button, EmptyState, Spinner, toast } from '../../ui';
import { useSession } from '../session';
import { Page, PageHeader } from '../shell/page';
import { CopyDialog } from './copy-dialog';
import { useStoreApi } from './store-api';
import { KindBadge, StoreItemIcon } from './store-card';
import { AppParts, DatasetParts, Fact, PromptParts, ToolParts } from './store-detail-parts';
import { PluginParts } from './store-plugin-parts';
import { saveFile } from './save-file';
import { ROUTE_OF, typeOfRoute } from './store-kinds';
import s from './store.module.css';
import { seededName } from '../../i18n/seeded';

export default function StoreDetailPage() {
  const { pathname } = useLocation();
  const params = useParams();
  const type = typeOfRoute(pathname.split('/')[3]) ?? 'app';
  const id = params.appId ?? params.knowledgeId ?? params.promptId ?? params.toolId ?? params.pluginId ?? '';
  return <StoreDetail key={`${type}/${id}`} type={type} id={id} />;
}

export function StoreDetail({ type, id }: { type: StoreItemType; id: string }) {
  const { t } = useTranslation(['store', 'common']);
  const api = useStoreApi();
  const [item, setItem] = useState<StoreItemDetail | null | 'missing'>(null);
  const [copying, setCopying] = useState(false);
  // Installing a package is a super admin's (server-wide); the server checks the stored bytes as an upload's.
  const mayInstall = useSession((st) => st.user?.role === 'super_admin');
  const [installing, setInstalling] = useState(false);
  const install = useCallback(
    async (version?: string) => {
      setInstalling(true);
      try {
        const done = await installPluginFromStore(id, version);
        toast.success(t('detail.plugin.installed', { name: done.name, version: done.version }));
        // The server counted this install; show it without reloading the item.
        setItem((cur) => (cur && cur !== 'missing' ? { ...cur, copy_count: cur.copy_count + 1 } : cur));
      } catch {
        // The request layer shows the server's catalogue message.
      } finally {
        setInstalling(false);
      }
    },
    [id, t],
  );
  const download = useCallback(
    async (version: string) => {
      try {
        // The same name the server's Content-Disposition gives: `<plugin id>-<version>.tgz`.
        const snap = item !== null && item !== 'missing' && item.snapshot.type === 'plugin' ? item.snapshot : null;
        const file = `${snap?.plugin_id ?? 'plugin'}-${version}.tgz`;
        saveFile(await api.downloadPlugin(id, version), file);
        toast.success(t('detail.plugin.downloaded', { file }));
      } catch {
        // The request layer shows the server's catalogue message.
      }
    },
    [api, id, item, t],
  );
  useEffect(() => {
    let live = true;
    api.get(type, id).then(
      (d) => live && setItem(d),
      () => live && setItem('missing'),
    );
    return () => {
      live = false;
    };
  }, [api, type, id]);
  const loadSegments = useCallback((doc: string, page: number) => api.segments(id, doc, { page, page_size: 20 }), [api, id]);
  const back = `/operation/store/${ROUTE_OF[type]}`;

  if (item === null) {
    return (
      <Page>
        <Spinner />
      </Page>
    );
  }
  if (item === 'missing') {
    return (
      <Page data-testid="store-detail-missing">
        <EmptyState
          className={s.emptyBox}
          title={t('detail.loadFailed')}
          description={id}
          action={
            <Button asChild size="sm">
              <Link to={back}>{t('detail.back')}</Link>
            </Button>
          }
        />
      </Page>
    );
  }
  const snap = item.snapshot;
  return (
    <Page data-testid="store-detail" data-item-id={item.id}>
      <PageHeader
        leading={<StoreItemIcon item={item} size={48} />}
        title={item.name}
        description={item.description || t('detail.noDescription')}
        actions={
          <>
            <Button asChild size="sm" variant="ghost" icon={<ArrowLeft aria-hidden="true" />}>
              <Link to={back}>{t('detail.back')}</Link>
            </Button>
            {type === 'plugin' ? (
              <>
                <Button icon={<FileDown aria-hidden="true" />} onClick={() => void download(item.version ?? '')} data-testid="store-download">
                  {t('detail.plugin.download')}
                </Button>
                {mayInstall && (
                  <Button variant="primary" icon={<Download aria-hidden="true" />} disabled={installing} onClick={() => void install()} data-testid="store-install">
                    {t('detail.plugin.install')}
                  </Button>
                )}
              </>
            ) : (
              <Button variant="primary" icon={<Copy aria-hidden="true" />} onClick={() => setCopying(true)} data-testid="store-copy">
                {t('detail.copy')}
              </Button>
            )}
          </>
        }
      />
      <div className={s.inline}>
        <KindBadge item={item} />
        {item.tags.map((tag) => (
          <Badge key={tag}>{tag}</Badge>
        ))}
      </div>
      <div className={s.facts}>
        <Fact label={t('detail.publishedBy')} value={item.published_by_name} />
        {type !== 'plugin' && <Fact label={t('detail.source')} value={seededName(item.source_workspace_name)} />}
        <Fact label={t('detail.publishedAt')} value={formatDateTime(item.published_at, { withSeconds: false }) ?? ''} />
        {type !== 'plugin' && <Fact label={t('detail.copyCount')} value={<span data-testid="store-detail-copies">{item.copy_count}</span>} />}
      </div>
      {snap.type === 'app' && <AppParts snapshot={snap} />}
      {snap.type === 'dataset' && <DatasetParts snapshot={snap} loadSegments={loadSegments} />}
      {snap.type === 'prompt' && <PromptParts snapshot={snap} />}
      {snap.type === 'tool' && <ToolParts snapshot={snap} />}
      {snap.type === 'plugin' && (
        <PluginParts snapshot={snap} version={item.version} installs={item.copy_count} busy={installing} onInstall={mayInstall ? (v) => void install(v) : undefined} onDownload={(v) => void download(v)} />
      )}
      {type !== 'plugin' && <CopyDialog type={type} item={item} open={copying} onOpenChange={setCopying} onCopied={() => setItem({ ...item, copy_count: item.copy_count + 1 })} />}
    </Page>
  );
}
