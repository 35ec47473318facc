/**
 * The distribute tab of /operation/app/:appId/{agent-builder|agent-team|agent-flow} (spec 2
 * "distribute"; 4 "Distribution: not distributed to distributed; it can be cancelled; only
 * project-space owners may do it"): one card per platform (current project, portal, store, tool).
 * The owner distributes a chosen published version (the newest by default), moves a distribution to
 * another version ("a newer version is available") and cancels one after a confirmation; anyone
 * else sees every action disabled with the reason the server gives (`blocked`). Data comes through
 * {@link DistributeApiContext}.
 */
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOutletContext } from 'react-router';
import type { AppDetail, AppVersion } from '../../../../schemas/app';
import type { DistributionList, DistributionView } from '../../../../schemas/distribution';
import { formatDateTime } from '../../../kit/schema-table';
import { SelectInput } from '../../../kit/widgets/select-input';
import { Button } from '../../../ui/button';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { Dialog, DialogBody, DialogContent, DialogFooter, DialogHeader, DialogTitle } from '../../../ui/dialog';
import { EmptyState } from '../../../ui/empty-state';
import { Field } from '../../../ui/field';
import { Spinner } from '../../../ui/spinner';
import { toast } from '../../../ui/toast';
import { Page } from '../../shell/page';
import { editorKindOf } from '../../workspace/apps/app-modes';
import { useDistributeApi } from './distribute-api';
import { DistributionCard } from './distribution-card';
import type { EditorContext } from './editor-layout';
import s from './distribute-page.module.css';

type DistApp = Pick<AppDetail, 'id' | 'workspace_id' | 'type'>;

export interface DistributePageProps {
  /** Default: the app of the editor route. */
  app?: DistApp;
  /** The server's origin for the embed snippet (default: this page's). */
  origin?: string;
}

type Load = { state: 'loading' } | { state: 'failed' } | { state: 'ready'; list: DistributionList };
type Choice = { kind: 'distribute' | 'move'; view: DistributionView };

export default function DistributePage({ app: given, origin }: DistributePageProps) {
  const { t } = useTranslation('distribution');
  const context = useOutletContext<EditorContext | undefined>();
  const app = given ?? context?.app;
  const api = useDistributeApi();
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [choice, setChoice] = useState<Choice | null>(null);
  const [cancelling, setCancelling] = useState<DistributionView | null>(null);
  const appId = app?.id ?? '';
  const workspaceId = app?.workspace_id ?? '';

  const reload = useCallback(() => {
    if (!appId) return;
    setLoad((l) => (l.state === 'ready' ? l : { state: 'loading' }));
    api.list(appId, workspaceId).then(
      (list) => setLoad({ state: 'ready', list }),
      () => setLoad({ state: 'failed' }),
    );
  }, [api, appId, workspaceId]);
  useEffect(reload, [reload]);

  if (!app) return null;
  // The app's own editor's Version tab (the agent builder's is not built yet).
  const versionTabHref = `/operation/app/${encodeURIComponent(app.id)}/${editorKindOf(app.type)}/version`;
  const platformName = (v: DistributionView) => t(`platforms.${v.platform}.title`);

  const cancel = async () => {
    const d = cancelling?.distribution;
    if (!cancelling || !d) return;
    try {
      setLoad({ state: 'ready', list: await api.cancel(app.id, app.workspace_id, d.id) });
      toast.success(t('done.cancelled', { platform: platformName(cancelling) }));
    } catch (e) {
      // The request layer showed why; what is true now is on the server.
      reload();
      throw e;
    }
  };

  return (
    <Page data-testid="distribute-page">
      <div className={s.header}>
        <p className={s.help}>{t('help')}</p>
        {load.state === 'ready' && (
          <p className={s.latest} data-testid="distribute-latest">
            {load.list.latest_version ? t('latest', { version: load.list.latest_version.version }) : t('noVersionYet')}
          </p>
        )}
      </div>
      {load.state === 'loading' && <Spinner label={t('dialog.loading')} />}
      {load.state === 'failed' && <EmptyState title={t('loadFailed')} action={<Button onClick={reload}>{t('retry')}</Button>} />}
      {load.state === 'ready' && (
        <>
          {!load.list.is_owner && (
            <p className={s.notice} role="note" data-testid="distribute-owner-only">
              {t('ownerOnly')}
            </p>
          )}
          <div className={s.grid}>
            {load.list.platforms.map((view) => (
              <DistributionCard
                key={view.platform}
                view={view}
                app={app}
                latest={load.list.latest_version}
                origin={origin}
                versionTabHref={versionTabHref}
                onDistribute={() => setChoice({ kind: 'distribute', view })}
                onMove={() => setChoice({ kind: 'move', view })}
                onCancel={() => setCancelling(view)}
              />
            ))}
          </div>
        </>
      )}
      <VersionDialog
        app={app}
        choice={choice}
        onClose={() => setChoice(null)}
        onDone={(list) => setLoad({ state: 'ready', list })}
        onFailed={reload}
      />
      <ConfirmDialog
        open={cancelling !== null}
        onOpenChange={(o) => !o && setCancelling(null)}
        title={cancelling ? t('confirmCancel.title', { platform: platformName(cancelling) }) : ''}
        description={t('confirmCancel.description')}
        confirmLabel={t('confirmCancel.confirm')}
        cancelLabel={t('confirmCancel.keep')}
        danger
        onConfirm={cancel}
      />
    </Page>
  );
}

interface VersionDialogProps {
  app: DistApp;
  choice: Choice | null;
  onClose(): void;
  onDone(list: DistributionList): void;
  onFailed(): void;
}

/** Distribute, or move a distribution: choose a published version (the newest first and chosen). */
function VersionDialog({ app, choice: given, onClose, onDone, onFailed }: VersionDialogProps) {
  const { t } = useTranslation('distribution');
  const api = useDistributeApi();
  const [versions, setVersions] = useState<AppVersion[] | null>(null);
  const [picked, setPicked] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // The last choice stays shown while the dialog animates closed (its title would otherwise change).
  const [last, setLast] = useState<Choice | null>(given);
  if (given && given !== last) setLast(given);
  const choice = given ?? last;
  const open = given !== null;
  const platformName = choice ? t(`platforms.${choice.view.platform}.title`) : '';
  const serving = choice?.kind === 'move' ? choice.view.distribution?.version?.id : undefined;

  useEffect(() => {
    if (!open) return;
    setVersions(null);
    setPicked(null);
    api.versions(app.id, app.workspace_id).then(
      (list) => {
        setVersions(list);
        setPicked(list[0]?.id ?? null);
      },
      () => setVersions([]),
    );
  }, [open, api, app.id, app.workspace_id]);

  const label = (v: AppVersion, i: number) =>
    [v.version, formatDateTime(v.created_at)].join(' · ') + (i === 0 ? ` (${t('dialog.latest')})` : '') + (v.id === serving ? ` (${t('dialog.serving')})` : '');
  const same = !!picked && picked === serving;

  async function submit() {
    if (!choice || !picked || same) return;
    const version = versions?.find((v) => v.id === picked)?.version ?? '';
    setBusy(true);
    try {
      const list =
        choice.kind === 'distribute'
          ? await api.distribute(app.id, app.workspace_id, { platform: choice.view.platform, version_id: picked })
          : await api.move(app.id, app.workspace_id, { id: choice.view.distribution!.id, version_id: picked });
      onDone(list);
      toast.success(t(choice.kind === 'distribute' ? 'done.distributed' : 'done.moved', { platform: platformName, version }));
      onClose();
    } catch {
      // The request layer showed why; the cards show what is true now.
      onFailed();
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open={open} onOpenChange={(o) => !o && !busy && onClose()}>
      <DialogContent size="sm" closeLabel={t('actions.close')} data-testid="distribution-dialog">
        <DialogHeader>
          <DialogTitle>{t(choice?.kind === 'move' ? 'dialog.moveTitle' : 'dialog.distributeTitle', { platform: platformName })}</DialogTitle>
        </DialogHeader>
        <DialogBody className={s.dialogBody}>
          {versions === null ? (
            <Spinner label={t('dialog.loading')} />
          ) : (
            <Field label={t('dialog.version')} help={same ? t('dialog.sameVersion') : t(choice?.kind === 'move' ? 'dialog.moveHelp' : 'dialog.distributeHelp')}>
              <SelectInput
                value={picked}
                onChange={(v) => setPicked(v ?? null)}
                options={versions.map((v, i) => ({ value: v.id, label: label(v, i) }))}
                data-testid="distribution-version-select"
              />
            </Field>
          )}
        </DialogBody>
        <DialogFooter>
          <Button variant="secondary" disabled={busy} onClick={onClose}>
            {t('actions.close')}
          </Button>
          <Button variant="primary" loading={busy} disabled={!picked || same} onClick={() => void submit()} data-testid="distribution-dialog-submit">
            {t(choice?.kind === 'move' ? 'actions.move' : 'actions.distribute')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
