/**
 * /operation/system/plugin: the installed plugin packages, for super admins only (a package's
 * server bundle runs inside the server with its rights). Install by upload, upgrade by uploading a
 * newer package of the same plugin, publish to the tenant's plugin store (issue 23), delete — refused while flows use its kinds, with the apps listed
 * and a "delete anyway" that leaves those nodes failing their check.
 */
import { PackagePlus, Puzzle, Store, Trash2, Upload } from 'lucide-react';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { InstalledPlugin } from '../../../../schemas/plugin-package';
import { deletePlugin, installPlugin, listPlugins, upgradePlugin } from '../../../api/plugins';
import { describeError } from '../../../api/reactions';
import { publishPluginToStore } from '../../../api/store';
import { isApiError } from '../../../api/request';
import { Badge, Button, Card, ConfirmDialog, EmptyState, Spinner, Table, TableBody, TableCell, TableHead, TableHeader, TableRow, toast } from '../../../ui';
import { useSession } from '../../session';
import { Page, PageHeader } from '../../shell/page';
import { formatDateTime, LoadFailed, NoPermission, PAGE_STYLE, useLoad } from '../users/admin-kit';
import s from './plugins.module.css';

export default function PluginsPage() {
  const { t } = useTranslation('system');
  const me = useSession((st) => st.user);
  return (
    <Page style={PAGE_STYLE} data-testid="plugins-page">
      <PageHeader title={t('plugins.title')} description={t('plugins.description')} />
      {me?.role === 'super_admin' ? <PluginsScreen /> : <NoPermission description={t('plugins.superAdminOnly')} />}
    </Page>
  );
}

const errorText = (e: unknown) => {
  const m = describeError(e, 'silent');
  return m ? [m.text, m.detail].filter(Boolean).join(' — ') : '';
};

type Usage = { app_id: string; app_name: string; kinds: string[] }[];

function PluginsScreen() {
  const { t } = useTranslation(['system', 'common', 'store']);
  const loaded = useLoad((signal) => listPlugins({ signal, reaction: 'silent' }), []);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState('');
  const [removing, setRemoving] = useState<{ plugin: InstalledPlugin; usage: Usage | null } | null>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const upgradeRef = useRef<HTMLInputElement>(null);
  const upgradeTarget = useRef<string>('');

  const act = async (what: string, run: () => Promise<unknown>, done: string) => {
    setBusy(what);
    setError('');
    try {
      await run();
      toast.success(done);
      loaded.reload();
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(null);
    }
  };

  const onInstall = (file: File | undefined) => file && void act('install', () => installPlugin(file, { reaction: 'silent' }), t('plugins.installed', { name: file.name }));
  const onUpgrade = (file: File | undefined) => {
    const id = upgradeTarget.current;
    if (file && id) void act(`upgrade:${id}`, () => upgradePlugin(id, file, { reaction: 'silent' }), t('plugins.upgraded', { id }));
  };
  const remove = async (plugin: InstalledPlugin, force: boolean) => {
    try {
      await deletePlugin(plugin.id, force, { reaction: 'silent' });
      setRemoving(null);
      toast.success(t('plugins.deleted', { id: plugin.id }));
      loaded.reload();
    } catch (e) {
      if (isApiError(e, 'PLUGIN-1002')) {
        // The dialog stays open and turns into the "in use" warning with the forced delete.
        setRemoving({ plugin, usage: ((e.data as { usage?: Usage } | null)?.usage ?? []) as Usage });
        throw e;
      } else {
        setRemoving(null);
        setError(errorText(e));
      }
    }
  };

  return (
    <div className={s.sections}>
      <p className={s.warning} role="note">
        {t('plugins.warning')}
      </p>
      <Card className={s.install}>
        <div className={s.head}>
          <PackagePlus aria-hidden="true" />
          <div>
            <h2 className={s.title}>{t('plugins.install')}</h2>
            <p className={s.muted}>{t('plugins.installHelp')}</p>
          </div>
        </div>
        <input ref={fileRef} className={s.hidden} type="file" accept=".tgz,application/gzip" data-testid="plugin-file" onChange={(e) => (onInstall(e.target.files?.[0]), (e.target.value = ''))} />
        <input ref={upgradeRef} className={s.hidden} type="file" accept=".tgz,application/gzip" data-testid="plugin-upgrade-file" onChange={(e) => (onUpgrade(e.target.files?.[0]), (e.target.value = ''))} />
        <div className={s.row}>
          <Button variant="primary" icon={<Upload aria-hidden="true" />} loading={busy === 'install'} onClick={() => fileRef.current?.click()}>
            {t('plugins.upload')}
          </Button>
          {busy && <Spinner label={t('plugins.working')} />}
        </div>
        {error && (
          <p className={s.error} role="alert" data-testid="plugin-error">
            {error}
          </p>
        )}
      </Card>
      {loaded.status === 'error' ? (
        <LoadFailed onRetry={loaded.reload} />
      ) : loaded.status !== 'ready' ? (
        <Spinner label={t('common:states.loading')} />
      ) : loaded.data.length === 0 ? (
        <EmptyState icon={<Puzzle aria-hidden="true" />} title={t('plugins.empty')} />
      ) : (
        <Table data-testid="plugin-table">
          <TableHeader>
            <TableRow>
              <TableHead>{t('plugins.columns.name')}</TableHead>
              <TableHead>{t('plugins.columns.version')}</TableHead>
              <TableHead>{t('plugins.columns.kinds')}</TableHead>
              <TableHead>{t('plugins.columns.state')}</TableHead>
              <TableHead>{t('plugins.columns.installed')}</TableHead>
              <TableHead>{t('plugins.columns.actions')}</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {loaded.data.map((p) => (
              <TableRow key={p.id} data-testid={`plugin-${p.id}`}>
                <TableCell>
                  <Link className={s.name} to={`/operation/system/plugin/detail?id=${encodeURIComponent(p.id)}`}>
                    {p.name}
                  </Link>
                  <div className={s.mono}>{p.id}</div>
                </TableCell>
                <TableCell className={s.mono}>{p.version}</TableCell>
                <TableCell className={s.mono}>{p.kinds.map((k) => k.kind).join(', ')}</TableCell>
                <TableCell>
                  <Badge variant={p.state === 'active' ? 'success' : 'danger'}>{t(`plugins.state.${p.state}`)}</Badge>
                  {p.error && <div className={s.muted}>{p.error}</div>}
                </TableCell>
                <TableCell>
                  {p.installed_by} · {formatDateTime(p.updated_at)}
                </TableCell>
                <TableCell>
                  <div className={s.row}>
                    <Button
                      size="sm"
                      loading={busy === `upgrade:${p.id}`}
                      onClick={() => {
                        upgradeTarget.current = p.id;
                        upgradeRef.current?.click();
                      }}
                    >
                      {t('plugins.upgrade')}
                    </Button>
                    <Button
                      size="sm"
                      icon={<Store aria-hidden="true" />}
                      loading={busy === `publish:${p.id}`}
                      data-testid="plugin-publish"
                      onClick={() =>
                        void act(`publish:${p.id}`, () => publishPluginToStore({ plugin_id: p.id }, { reaction: 'silent' }), t('store:detail.plugin.published', { name: p.name, version: p.version }))
                      }
                    >
                      {t('store:detail.plugin.publish')}
                    </Button>
                    <Button size="sm" variant="danger" icon={<Trash2 aria-hidden="true" />} onClick={() => setRemoving({ plugin: p, usage: null })}>
                      {t('common:actions.delete')}
                    </Button>
                  </div>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {removing && (
        <ConfirmDialog
          open
          danger
          onOpenChange={(open) => !open && setRemoving(null)}
          title={removing.usage ? t('plugins.inUseTitle', { id: removing.plugin.id }) : t('plugins.deleteTitle', { id: removing.plugin.id })}
          description={
            removing.usage ? (
              <span data-testid="plugin-usage">
                {t('plugins.inUse')}
                {/* Spans: the dialog's description is a <p>, which cannot hold a list. */}
                <span className={s.usage}>
                  {removing.usage.map((u) => (
                    <span key={u.app_id}>
                      {u.app_name} ({u.kinds.join(', ')})
                    </span>
                  ))}
                </span>
              </span>
            ) : (
              t('plugins.deleteText')
            )
          }
          confirmLabel={removing.usage ? t('plugins.forceDelete') : t('common:actions.delete')}
          cancelLabel={t('common:actions.cancel')}
          onConfirm={() => remove(removing.plugin, Boolean(removing.usage))}
        />
      )}
    </div>
  );
}
