import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { AppImportResult, ImportMessage } from '../../../../schemas/app-import';
import { describeError } from '../../../api/reactions';
import { isApiError } from '../../../api/request';
import { Button, Dialog, DialogBody, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../../ui';
import { editorPath } from './app-modes';
import s from './apps-page.module.css';

export interface ImportAppDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  /** Creates the app on the server (POST /apps/import) and answers the report. */
  importApp(content: string): Promise<AppImportResult>;
  /** After an app was created (the list reloads). */
  onImported?(result: AppImportResult): void;
}

type State = { kind: 'idle' } | { kind: 'busy' } | { kind: 'done'; result: AppImportResult } | { kind: 'failed'; errors: ImportMessage[]; message?: string };

/** The `dsl` errors a refused import carries in `data.errors`. */
const importErrors = (e: unknown): ImportMessage[] => {
  const data = isApiError(e) ? (e.data as { errors?: unknown } | null) : null;
  return Array.isArray(data?.errors) ? (data.errors as ImportMessage[]) : [];
};

/**
 * "Create from file" on the apps page: pick a Dify DSL file or a flow exported here; the server
 * creates the app (its type from the file) and answers what it mapped, left out and warns about;
 * the dialog shows that report and opens the new app's editor.
 */
export function ImportAppDialog({ open, onOpenChange, importApp, onImported }: ImportAppDialogProps) {
  const { t } = useTranslation(['apps', 'dsl']);
  const input = useRef<HTMLInputElement>(null);
  const [state, setState] = useState<State>({ kind: 'idle' });
  const msg = (m: ImportMessage) => (t as (k: string, o?: object) => string)(`dsl:${m.key}`, m.params);
  const change = (o: boolean) => {
    if (!o) setState({ kind: 'idle' });
    onOpenChange(o);
  };
  const onFile = async (file: File | undefined) => {
    if (!file) return;
    setState({ kind: 'busy' });
    try {
      const result = await importApp(await file.text());
      setState({ kind: 'done', result });
      onImported?.(result);
    } catch (e) {
      const errors = importErrors(e);
      setState({ kind: 'failed', errors, ...(errors.length ? {} : { message: describeError(e, 'silent')?.text ?? String(e) }) });
    }
    if (input.current) input.current.value = '';
  };
  const report = state.kind === 'done' ? state.result.report : null;
  return (
    <Dialog open={open} onOpenChange={change}>
      <DialogContent size="lg" data-testid="import-app-dialog" closeLabel={t('importApp.close')}>
        <DialogHeader>
          <DialogTitle>{t('importApp.title')}</DialogTitle>
          <DialogDescription>{t('importApp.hint')}</DialogDescription>
        </DialogHeader>
        <DialogBody className={s.importBody}>
          <input ref={input} type="file" accept=".yml,.yaml,application/yaml,text/yaml" hidden data-testid="import-app-file" onChange={(e) => void onFile(e.target.files?.[0])} />
          {state.kind !== 'done' && (
            <div>
              <Button variant="secondary" data-testid="import-app-pick" disabled={state.kind === 'busy'} onClick={() => input.current?.click()}>
                {state.kind === 'busy' ? t('importApp.busy') : t('importApp.pick')}
              </Button>
            </div>
          )}
          {state.kind === 'failed' && (
            <div role="alert" data-testid="import-app-errors">
              <p>
                <strong>{t('importApp.failed')}</strong>
              </p>
              <ul className={s.dialogList}>{state.message ? <li>{state.message}</li> : state.errors.map((e, i) => <li key={i}>{msg(e)}</li>)}</ul>
            </div>
          )}
          {state.kind === 'done' && report && (
            <div data-testid="import-app-report">
              <p>
                <strong>{t('importApp.created', { name: state.result.app.name })}</strong> {t('dsl:summary.imported', { count: report.mapped })}
              </p>
              {report.unmapped.length > 0 && (
                <>
                  <p>{t('dsl:summary.unmappedTitle', { count: report.unmapped.length })}</p>
                  <ul className={s.dialogList} data-testid="import-app-unmapped">
                    {report.unmapped.map((u) => (
                      <li key={u.id}>{t('dsl:summary.unmappedItem', { title: u.title || u.id, type: u.type })}</li>
                    ))}
                  </ul>
                </>
              )}
              {report.warnings.length > 0 && (
                <>
                  <p>{t('dsl:summary.warningsTitle')}</p>
                  <ul className={s.dialogList} data-testid="import-app-warnings">
                    {report.warnings.map((w, i) => (
                      <li key={i}>{msg(w)}</li>
                    ))}
                  </ul>
                </>
              )}
            </div>
          )}
        </DialogBody>
        <DialogFooter>
          <Button variant="secondary" onClick={() => change(false)}>
            {t('importApp.close')}
          </Button>
          {state.kind === 'done' && (
            <Button variant="primary" asChild data-testid="import-app-open">
              <Link to={editorPath(state.result.app)}>{t('importApp.open')}</Link>
            </Button>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
