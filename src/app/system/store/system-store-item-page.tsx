/**
 * /operation/system/store/:type/:id: one submission as the store manager reviews it (issue 23): its
 * state, reason and who reviewed it when, the same snapshot parts the store's detail page shows, and
 * the actions its state allows — release or reject (a reason is required) what awaits release, take
 * offline (an optional reason) what is released. The publisher sees the state and the reason.
 */
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import type { AdminStoreDetail, StoreItemType } from '../../../../schemas/store';
import { describeError } from '../../../api/reactions';
import { Badge, Button, Dialog, DialogBody, DialogContent, DialogFooter, DialogHeader, DialogTitle, Field, Spinner, Textarea, toast } from '../../../ui';
import { Page, PageHeader } from '../../shell/page';
import { KindBadge, StoreItemIcon } from '../../store/store-card';
import { AppParts, DatasetParts, Fact, PromptParts, ToolParts } from '../../store/store-detail-parts';
import { PluginParts } from '../../store/store-plugin-parts';
import { REVIEW_TONE } from '../../store/store-kinds';
import { formatDateTime, LoadFailed, reportError, useLoad } from '../users/admin-kit';
import { useSystemStoreApi } from './system-store-api';
import s from '../../store/store.module.css';
import { seededName } from '../../../i18n/seeded';

export default function SystemStoreItemPage() {
  const { type = '', id = '' } = useParams();
  return <SystemStoreItem key={`${type}/${id}`} type={type as StoreItemType} id={id} />;
}

export function SystemStoreItem({ type, id }: { type: StoreItemType; id: string }) {
  const { t } = useTranslation(['store', 'common']);
  const api = useSystemStoreApi();
  const item = useLoad((signal) => api.get(type, id, { signal }), [api, type, id]);
  const [current, setCurrent] = useState<AdminStoreDetail | null>(null);
  const [asking, setAsking] = useState<'reject' | 'offline' | null>(null);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const loadSegments = useCallback((doc: string, page: number) => api.segments(id, doc, { page, page_size: 20 }), [api, id]);

  const d = current ?? item.data;
  if (item.status === 'error' && !d) return <LoadFailed onRetry={item.reload} />;
  if (!d) {
    return (
      <Page>
        <Spinner />
      </Page>
    );
  }
  const act = async (run: () => Promise<AdminStoreDetail>, done: string) => {
    setBusy(true);
    try {
      setCurrent(await run());
      toast.success(done);
      setAsking(null);
    } catch (e) {
      reportError(e);
    } finally {
      setBusy(false);
    }
  };
  const confirmReason = () => {
    if (asking === 'reject' && !reason.trim()) {
      setError(t('system.reasonRequired'));
      return;
    }
    const kind = d.type;
    void (asking === 'reject'
      ? act(() => api.reject(kind, d.id, reason.trim()), t('system.rejected')).catch((e) => setError(describeError(e)?.text ?? ''))
      : act(() => api.offline(kind, d.id, reason.trim()), t('system.tookOffline')));
  };
  const snap = d.snapshot;
  return (
    <Page data-testid="system-store-item" data-state={d.review_state}>
      <PageHeader
        leading={<StoreItemIcon item={d} size={48} />}
        title={d.name}
        description={d.description}
        actions={
          <>
            {d.review_state === 'awaiting_release' && (
              <>
                <Button onClick={() => (setReason(''), setError(null), setAsking('reject'))} data-testid="system-store-reject">
                  {t('system.reject')}
                </Button>
                <Button variant="primary" loading={busy} onClick={() => void act(() => api.release(d.type, d.id), t('system.released'))} data-testid="system-store-release">
                  {t('system.release')}
                </Button>
              </>
            )}
            {d.review_state === 'released' && (
              <Button variant="danger" onClick={() => (setReason(''), setError(null), setAsking('offline'))} data-testid="system-store-offline">
                {t('system.offline')}
              </Button>
            )}
          </>
        }
      />
      <div className={s.inline}>
        <Badge variant={REVIEW_TONE[d.review_state]} data-testid="system-store-state-badge">
          {t(`review.${d.review_state}`)}
        </Badge>
        <span>{t(`typeNames.${d.type}`)}</span>
        <KindBadge item={d} />
        {d.tags.map((tag) => (
          <Badge key={tag}>{tag}</Badge>
        ))}
      </div>
      {/* A plugin has no project space and is installed, not copied: its own facts (version, author, installs, checksum) are in PluginParts. */}
      <div className={s.facts} data-testid="system-store-facts">
        <Fact label={t('system.columns.tenant')} value={seededName(d.tenant_name)} />
        {snap.type !== 'plugin' && <Fact label={t('detail.source')} value={seededName(d.source_workspace_name)} />}
        <Fact label={t('detail.publishedBy')} value={d.published_by_name} />
        <Fact label={t('detail.publishedAt')} value={formatDateTime(d.published_at)} />
        {d.reviewed_at && <Fact label={t('system.reviewedAt')} value={formatDateTime(d.reviewed_at)} />}
        {d.review_reason && <Fact label={t('system.reasonShown')} value={d.review_reason} />}
        {snap.type !== 'plugin' && <Fact label={t('detail.copyCount')} value={d.copy_count} />}
      </div>
      <h2 className={s.sectionTitle}>{t('system.snapshot')}</h2>
      {snap.type === 'app' && <AppParts snapshot={snap} />}
      {snap.type === 'dataset' && <DatasetParts snapshot={snap} loadSegments={loadSegments} />}
      {snap.type === 'prompt' && <PromptParts snapshot={snap} />}
      {snap.type === 'tool' && <ToolParts snapshot={snap} />}
      {snap.type === 'plugin' && <PluginParts snapshot={snap} version={d.version} installs={d.copy_count} />}
      <Dialog open={asking !== null} onOpenChange={(open) => !open && setAsking(null)}>
        <DialogContent data-testid="system-store-reason-dialog">
          <DialogHeader>
            <DialogTitle>{asking === 'reject' ? t('system.rejectTitle', { name: d.name }) : t('system.offlineTitle', { name: d.name })}</DialogTitle>
          </DialogHeader>
          <DialogBody>
            <Field label={t('system.reasonLabel')} required={asking === 'reject'} error={error ?? undefined}>
              <Textarea value={reason} maxLength={500} onChange={(e) => (setReason(e.target.value), setError(null))} data-testid="system-store-reason" />
            </Field>
          </DialogBody>
          <DialogFooter>
            <Button onClick={() => setAsking(null)}>{t('common:actions.cancel')}</Button>
            <Button variant={asking === 'reject' ? 'primary' : 'danger'} loading={busy} onClick={confirmReason} data-testid="system-store-reason-confirm">
              {asking === 'reject' ? t('system.reject') : t('system.offline')}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </Page>
  );
}
