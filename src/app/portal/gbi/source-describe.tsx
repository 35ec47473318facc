/**
 * Describe the data: business names and descriptions of a source's tables and columns, beside the
 * column types and the sample values read from the source. Owner and admin save; others read.
 */
import { RefreshCw, Table2, Trash2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { GbiSourceDetail } from '../../../../schemas/gbi';
import { deleteGbiSource, getGbiSource, refreshGbiSource, updateGbiSource } from '../../../api/gbi';
import { notify } from '../../../api/reactions';
import { Badge } from '../../../ui/badge';
import { Button, buttonClass } from '../../../ui/button';
import { confirm } from '../../../ui/confirm-dialog';
import { Input } from '../../../ui/input';
import { Spinner } from '../../../ui/spinner';
import { portalPaths } from '../paths';
import { ColumnsTable } from './columns-table';
import s from './gbi.module.css';

type Words = Record<string, { business_name: string; description: string }>;

export function SourceDescribe({ workspaceId, sourceId, canManage, onDeleted }: { workspaceId: string; sourceId: string; canManage: boolean; onDeleted(): void }) {
  const { t } = useTranslation(['portal', 'common']);
  const [source, setSource] = useState<GbiSourceDetail | null>(null);
  const [words, setWords] = useState<Words>({});
  const [saving, setSaving] = useState(false);
  const [rereading, setRereading] = useState(false);

  /** Shows the source; `keep` holds unsaved edits that stay over the saved words (after a re-read). */
  const take = (d: GbiSourceDetail, keep: Words = {}) => {
    setSource(d);
    const w: Words = {};
    for (const tb of d.tables) {
      w[tb.id] = keep[tb.id] ?? { business_name: tb.business_name, description: tb.description };
      for (const c of tb.columns) w[c.id] = keep[c.id] ?? { business_name: c.business_name, description: c.description };
    }
    setWords(w);
  };
  useEffect(() => {
    getGbiSource(sourceId, { workspaceId }).then(take, () => {});
  }, [workspaceId, sourceId]);

  if (!source) return <Spinner />;
  const edit = (id: string, key: 'business_name' | 'description', value: string) => setWords((w) => ({ ...w, [id]: { ...w[id], [key]: value } }));
  // A table's own fields sit under no column header: their placeholder says what they are.
  const field = (id: string, key: 'business_name' | 'description', label: string, placeholder?: string) => (
    <Input className={s.cell} size="sm" aria-label={label} placeholder={placeholder} value={words[id]?.[key] ?? ''} readOnly={!canManage} maxLength={key === 'business_name' ? 64 : 500} onChange={(e) => edit(id, key, e.target.value)} />
  );

  const save = async () => {
    setSaving(true);
    try {
      const tables = source.tables.map((tb) => ({ id: tb.id, ...words[tb.id], columns: tb.columns.map((c) => ({ id: c.id, ...words[c.id] })) }));
      take(await updateGbiSource(source.id, { tables }, { workspaceId }));
      notify({ level: 'success', text: t('gbi.saved') });
    } catch {
      // The request layer showed why.
    } finally {
      setSaving(false);
    }
  };
  const reread = async () => {
    setRereading(true);
    try {
      take(await refreshGbiSource(source.id, { workspaceId }), words);
      notify({ level: 'success', text: t('gbi.rereadDone') });
    } catch {
      // The request layer showed why.
    } finally {
      setRereading(false);
    }
  };
  const remove = async () => {
    if (!(await confirm({ title: t('gbi.deleteTitle', { name: source.name }), description: t('gbi.deleteBody'), danger: true, confirmLabel: t('common:actions.delete') }))) return;
    await deleteGbiSource(source.id, { workspaceId }).then(() => {
      notify({ level: 'success', text: t('gbi.deleted') });
      onDeleted();
    }, () => {});
  };

  return (
    <div className={s.card} data-testid="gbi-describe">
      <div className={s.row}>
        <strong>{source.name}</strong>
        <Badge>{t(`gbi.kinds.${source.kind}`)}</Badge>
        <span className={s.muted}>{t('gbi.describeHint')}</span>
        {canManage && (
          <>
            <Button size="sm" variant="primary" loading={saving} onClick={() => void save()}>
              {t('gbi.save')}
            </Button>
            <Button size="sm" title={t('gbi.rereadHint')} loading={rereading} icon={<RefreshCw aria-hidden="true" />} onClick={() => void reread()} data-testid="gbi-reread">
              {t('gbi.reread')}
            </Button>
            <Button size="sm" variant="danger" icon={<Trash2 aria-hidden="true" />} onClick={() => void remove()}>
              {t('common:actions.delete')}
            </Button>
          </>
        )}
      </div>
      {source.tables.map((tb) => (
        <div key={tb.id} className={s.card}>
          <div className={s.row}>
            <strong>{tb.name}</strong>
            {tb.row_count !== null && <span className={s.muted}>{t('gbi.rows', { count: tb.row_count })}</span>}
            {field(tb.id, 'business_name', `${tb.name} ${t('gbi.businessName')}`, t('gbi.businessName'))}
            {field(tb.id, 'description', `${tb.name} ${t('gbi.description')}`, t('gbi.description'))}
            <Link to={portalPaths.gbiTable(source.id, tb.id)} className={buttonClass({ size: 'sm', variant: 'ghost' })} data-testid="gbi-view-table">
              <Table2 aria-hidden="true" size={14} />
              {t('gbi.viewTable')}
            </Link>
          </div>
          <ColumnsTable columns={tb.columns} described={(c, key) => field(c.id, key, `${c.name} ${t(key === 'business_name' ? 'gbi.businessName' : 'gbi.description')}`)} />
        </div>
      ))}
    </div>
  );
}
