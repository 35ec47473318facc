/**
 * /portal/gbi-data-settings/gbi-data-settings-page/file-management: upload a spreadsheet (.xlsx, .xls or
 * .csv), preview each sheet (header detected, column types, first rows), choose the sheets and their
 * table names, save it as a source (loaded into its DuckDB file on the server); then describe it.
 */
import { Upload } from 'lucide-react';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { GbiFilePreview } from '../../../../schemas/gbi';
import { uploadFile } from '../../../api/files';
import { addGbiFile, previewGbiFile } from '../../../api/gbi';
import { notify } from '../../../api/reactions';
import { Button } from '../../../ui/button';
import { Checkbox } from '../../../ui/checkbox';
import { EmptyState } from '../../../ui/empty-state';
import { Input } from '../../../ui/input';
import { Page } from '../../shell/page';
import { SourcesOf } from './database-management-page';
import { ResultTable } from './result-table';
import { SpacePicker, useGbiSpace } from './use-gbi-space';
import s from './gbi.module.css';

type Choice = { include: boolean; table_name: string };

export default function GbiFileManagementPage() {
  const { t } = useTranslation(['portal', 'common']);
  const space = useGbiSpace();
  const ws = space.workspaceId;
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [preview, setPreview] = useState<GbiFilePreview | null>(null);
  const [choices, setChoices] = useState<Choice[]>([]);
  const [nonce, setNonce] = useState(0);

  if (space.spaces && !ws) return <EmptyState title={t('gbi.noWorkspace')} />;
  if (!ws) return null;

  const pick = async (file: File | undefined) => {
    if (!file) return;
    setBusy(true);
    try {
      const uploaded = await uploadFile(file, 'dataset', { workspaceId: ws });
      const p = await previewGbiFile(uploaded.id, { workspaceId: ws });
      setPreview(p);
      setChoices(p.sheets.map((x) => ({ include: true, table_name: x.table_name })));
    } catch {
      // The request layer showed why.
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  };
  const save = async () => {
    if (!preview) return;
    setBusy(true);
    try {
      const sheets = preview.sheets.flatMap((x, i) => (choices[i].include ? [{ sheet: x.sheet, table_name: choices[i].table_name }] : []));
      await addGbiFile({ file_id: preview.file_id, sheets }, { workspaceId: ws });
      notify({ level: 'success', text: t('gbi.added') });
      setPreview(null);
      setNonce((n) => n + 1);
    } catch {
      // The request layer showed why.
    } finally {
      setBusy(false);
    }
  };
  const choose = (i: number, c: Partial<Choice>) => setChoices((cur) => cur.map((x, j) => (j === i ? { ...x, ...c } : x)));

  return (
    <Page>
      <div className={s.row}>
        <SpacePicker space={space} />
        {space.canManage && (
          <>
            <input ref={input} type="file" accept=".xlsx,.xls,.csv" hidden data-testid="gbi-file-input" onChange={(e) => void pick(e.target.files?.[0])} />
            <Button size="sm" variant="primary" icon={<Upload aria-hidden="true" />} loading={busy && !preview} onClick={() => input.current?.click()}>
              {t('gbi.upload')}
            </Button>
            <span className={s.muted}>{t('gbi.uploadHint')}</span>
          </>
        )}
      </div>
      {preview && (
        <div className={s.card} data-testid="gbi-preview">
          <strong>
            {t('gbi.preview')}: {preview.file_name}
          </strong>
          {preview.sheets.map((x, i) => (
            <div key={x.sheet} className={s.card}>
              <div className={s.row}>
                <Checkbox checked={choices[i].include} onCheckedChange={(v) => choose(i, { include: v === true })} aria-label={`${x.sheet} ${t('gbi.include')}`} />
                <strong>{x.sheet}</strong>
                <label className={s.row}>
                  <span className={s.muted}>{t('gbi.tableName')}</span>
                  <Input size="sm" value={choices[i].table_name} maxLength={63} onChange={(e) => choose(i, { table_name: e.target.value })} />
                </label>
                <span className={s.muted}>{t('gbi.rows', { count: x.row_count })}</span>
                <span className={s.muted}>{x.header_detected ? t('gbi.headerDetected') : t('gbi.noHeader')}</span>
              </div>
              <ResultTable columns={x.columns.map((c) => ({ name: `${c.name} · ${c.data_type}` }))} rows={x.rows} />
            </div>
          ))}
          <div className={s.row}>
            <Button variant="primary" loading={busy} disabled={!choices.some((c) => c.include)} onClick={() => void save()}>
              {t('gbi.saveFile')}
            </Button>
            <Button onClick={() => setPreview(null)}>{t('common:actions.cancel')}</Button>
          </div>
        </div>
      )}
      <SourcesOf kind="spreadsheet" workspaceId={ws} canManage={space.canManage} nonce={nonce} />
    </Page>
  );
}
