import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { AppImportResult } from '../../../../schemas/app-import';
import { importBodyClass, importFailure, ImportFailureView, ImportReportView, type ImportFailure } from '../../../canvas/editor/import-report';
import { Button, Dialog, DialogBody, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../../ui';
import { editorPath } from './app-modes';

export interface ImportAppDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  /** Creates the app on the server (POST /apps/import) and answers the report. */
  importApp(content: string): Promise<AppImportResult>;
  /** After an app was created (the list reloads). */
  onImported?(result: AppImportResult): void;
}

type State = { kind: 'idle' } | { kind: 'busy' } | { kind: 'done'; result: AppImportResult } | ({ kind: 'failed' } & ImportFailure);

/**
 * "Create from file" on the apps page: pick a Dify DSL file or a flow exported here; the server
 * creates the app (its type from the file) and answers what it mapped, left out and warns about;
 * the dialog shows that report and opens the new app's editor.
 */
export function ImportAppDialog({ open, onOpenChange, importApp, onImported }: ImportAppDialogProps) {
  const { t } = useTranslation('apps');
  const input = useRef<HTMLInputElement>(null);
  const [state, setState] = useState<State>({ kind: 'idle' });
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
      setState({ kind: 'failed', ...importFailure(e) });
    }
    if (input.current) input.current.value = '';
  };
  return (
    <Dialog open={open} onOpenChange={change}>
      <DialogContent size="lg" data-testid="import-app-dialog" closeLabel={t('importApp.close')}>
        <DialogHeader>
          <DialogTitle>{t('importApp.title')}</DialogTitle>
          <DialogDescription>{t('importApp.hint')}</DialogDescription>
        </DialogHeader>
        <DialogBody className={importBodyClass}>
          <input ref={input} type="file" accept=".yml,.yaml,application/yaml,text/yaml" hidden data-testid="import-app-file" onChange={(e) => void onFile(e.target.files?.[0])} />
          {state.kind !== 'done' && (
            <div>
              <Button variant="secondary" data-testid="import-app-pick" disabled={state.kind === 'busy'} onClick={() => input.current?.click()}>
                {state.kind === 'busy' ? t('importApp.busy') : t('importApp.pick')}
              </Button>
            </div>
          )}
          {state.kind === 'failed' && <ImportFailureView failure={state} heading={t('importApp.failed')} testId="import-app-errors" />}
          {state.kind === 'done' && <ImportReportView report={state.result.report} heading={t('importApp.created', { name: state.result.app.name })} testId="import-app-report" />}
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
