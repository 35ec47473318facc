/**
 * /portal/gbi-data-settings/gbi-data-settings-page/database-management: the project space's
 * databases as GBI sources (added by owner and admin; tables, columns and samples read at once),
 * and describing each source's data.
 */
import { Database as DatabaseIcon } from 'lucide-react';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Database } from '../../../../schemas/database';
import type { GbiSource } from '../../../../schemas/gbi';
import { listDatabases } from '../../../api/databases';
import { addGbiDatabase, listGbiSources } from '../../../api/gbi';
import { notify } from '../../../api/reactions';
import { SelectInput } from '../../../kit/widgets/select-input';
import { Button } from '../../../ui/button';
import { EmptyState } from '../../../ui/empty-state';
import { Page } from '../../shell/page';
import { settleLoadError } from '../load-error';
import { SourceDescribe } from './source-describe';
import { SpacePicker, useGbiSpace } from './use-gbi-space';
import s from './gbi.module.css';

export function SourcesOf({ kind, workspaceId, canManage, nonce }: { kind: GbiSource['kind']; workspaceId: string; canManage: boolean; nonce: number }) {
  const { t } = useTranslation('portal');
  const [sources, setSources] = useState<GbiSource[] | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const reload = useCallback(
    () =>
      listGbiSources({ workspaceId, reaction: 'silent' }).then((list) => {
        const mine = list.filter((x) => x.kind === kind);
        setSources(mine);
        setOpen((cur) => (cur && mine.some((x) => x.id === cur) ? cur : (mine[0]?.id ?? null)));
      }, settleLoadError),
    [workspaceId, kind],
  );
  useEffect(() => void reload(), [reload, nonce]);
  if (!sources) return null;
  if (!sources.length) return <EmptyState icon={<DatabaseIcon aria-hidden="true" />} title={t('gbi.noSources')} />;
  return (
    <>
      <div className={s.row} role="tablist" aria-label={t('gbi.sources')}>
        {sources.map((x) => (
          <Button key={x.id} size="sm" variant={x.id === open ? 'primary' : 'secondary'} role="tab" aria-selected={x.id === open} onClick={() => setOpen(x.id)}>
            {x.name}
          </Button>
        ))}
      </div>
      {open && <SourceDescribe key={open} workspaceId={workspaceId} sourceId={open} canManage={canManage} onDeleted={() => void reload()} />}
    </>
  );
}

export default function GbiDatabaseManagementPage() {
  const { t } = useTranslation(['portal', 'database']);
  const space = useGbiSpace();
  const ws = space.workspaceId;
  const [databases, setDatabases] = useState<Database[]>([]);
  const [chosen, setChosen] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const [nonce, setNonce] = useState(0);
  useEffect(() => {
    if (!ws) return;
    listDatabases({ page: 1, page_size: 1000 }, { workspaceId: ws, reaction: 'silent' }).then((p) => setDatabases(p.items), settleLoadError);
  }, [ws]);

  if (space.spaces && !ws) return <EmptyState title={t('gbi.noWorkspace')} />;
  if (!ws) return null;
  const add = async () => {
    if (!chosen) return;
    setAdding(true);
    try {
      await addGbiDatabase({ database_id: chosen }, { workspaceId: ws });
      notify({ level: 'success', text: t('gbi.added') });
      setChosen(null);
      setNonce((n) => n + 1);
    } catch {
      // The request layer showed why.
    } finally {
      setAdding(false);
    }
  };
  return (
    <Page>
      <div className={s.row}>
        <SpacePicker space={space} />
        {space.canManage &&
          (databases.length ? (
            <>
              <SelectInput
                aria-label={t('gbi.chooseDatabase')}
                placeholder={t('gbi.chooseDatabase')}
                size="sm"
                value={chosen}
                onChange={(v) => setChosen(v ?? null)}
                options={databases.map((d) => ({ value: d.id, label: `${d.name} (${d.type})` }))}
              />
              <Button size="sm" variant="primary" loading={adding} disabled={!chosen} onClick={() => void add()}>
                {t('gbi.addDatabase')}
              </Button>
            </>
          ) : (
            <span className={s.muted}>{t('gbi.noDatabases')}</span>
          ))}
      </div>
      <SourcesOf kind="database" workspaceId={ws} canManage={space.canManage} nonce={nonce} />
    </Page>
  );
}
