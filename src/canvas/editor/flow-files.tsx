import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ImportReport } from '../../../schemas/app-import';
import { Button, Dialog, DialogBody, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, toast } from '../../ui';
import { exportFlowYaml, type FlowFileAppInput } from '../dsl';
import type { FlowStore } from '../store/create-flow-store';
import { importBodyClass, importFailure, ImportFailureView, ImportReportView, type ImportFailure } from './import-report';

/** A file name from an app name (no path separators or control characters). */
export const flowFileName = (name: string) => `${name.replace(/[\\/:*?"<>|\u0000-\u001f]+/g, '_').trim() || 'flow'}.yml`;

/** Downloads the store's flow as our YAML file (`exportFlowYaml`); returns the file name. */
export function downloadFlowYaml(store: FlowStore, app: FlowFileAppInput): string {
  const text = exportFlowYaml(store.toDocument(), app);
  const file = flowFileName(app.name ?? '');
  const url = URL.createObjectURL(new Blob([text], { type: 'application/yaml' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = file;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
  return file;
}

/**
 * What the editor's import needs from the server. The file is read there (the same importer and
 * checks as "Create from file"), so the browser never turns a file into a flow itself.
 */
export interface FlowImportApi {
  /**
   * POST /apps/{app_id}/import: the server replaces the app's draft with the file's flow and answers
   * its report. A refusal throws: APP-1001 for another mode, VALIDATION-1000 with `data.errors`.
   */
  importFile(content: string): Promise<ImportReport>;
  /** Puts the stored draft, now the imported flow, in the editor (autosave's `reload`): history starts anew. */
  reload(): Promise<void>;
}

export interface ImportDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  importer: FlowImportApi;
  /** Called after the imported flow is on the canvas (the editor fits the view). */
  onImported?(): void;
}

type State =
  | { kind: 'idle' }
  | { kind: 'chosen'; name: string; content: string }
  | { kind: 'busy'; name: string }
  | { kind: 'done'; report: ImportReport }
  | ({ kind: 'failed' } & ImportFailure);

/**
 * Import of a flow file into this app: our YAML or a Dify DSL file. The builder picks a file, then
 * "Replace" sends it to the server, which replaces the draft (refusing a file of another mode, with
 * nothing changed); the editor then reloads the draft and the dialog shows the server's report
 * (the node count, every Dify node it could not map, its notes).
 */
export function ImportDialog({ open, onOpenChange, importer, onImported }: ImportDialogProps) {
  const { t } = useTranslation('flowtools');
  const input = useRef<HTMLInputElement>(null);
  const [state, setState] = useState<State>({ kind: 'idle' });
  const change = (o: boolean) => {
    if (state.kind === 'busy') return;
    if (!o) setState({ kind: 'idle' });
    onOpenChange(o);
  };
  const onFile = async (file: File | undefined) => {
    if (!file) return;
    try {
      setState({ kind: 'chosen', name: file.name, content: await file.text() });
    } catch {
      setState({ kind: 'failed', errors: [], message: t('importDialog.readFailed') });
    }
    if (input.current) input.current.value = '';
  };
  const replace = async () => {
    if (state.kind !== 'chosen') return;
    setState({ kind: 'busy', name: state.name });
    try {
      const report = await importer.importFile(state.content);
      await importer.reload();
      setState({ kind: 'done', report });
      toast.success(t('importDialog.done', { count: report.mapped }));
      onImported?.();
    } catch (e) {
      setState({ kind: 'failed', ...importFailure(e) });
    }
  };
  const busy = state.kind === 'busy';
  return (
    <Dialog open={open} onOpenChange={change}>
      <DialogContent size="lg" data-testid="import-dialog" closeLabel={t('importDialog.cancel')}>
        <DialogHeader>
          <DialogTitle>{t('importDialog.title')}</DialogTitle>
          <DialogDescription>{t('importDialog.hint')}</DialogDescription>
        </DialogHeader>
        <DialogBody className={importBodyClass}>
          <input ref={input} type="file" accept=".yml,.yaml,application/yaml,text/yaml" hidden data-testid="import-file" onChange={(e) => void onFile(e.target.files?.[0])} />
          {state.kind !== 'done' && (
            <div>
              <Button variant="secondary" data-testid="import-pick" disabled={busy} onClick={() => input.current?.click()}>
                {t('importDialog.pick')}
              </Button>
            </div>
          )}
          {(state.kind === 'chosen' || state.kind === 'busy') && (
            <p data-testid="import-chosen">{t(busy ? 'importDialog.busy' : 'importDialog.chosen', { file: state.name })}</p>
          )}
          {state.kind === 'failed' && <ImportFailureView failure={state} heading={t('importDialog.failedTitle')} testId="import-errors" />}
          {state.kind === 'done' && <ImportReportView report={state.report} heading={t('importDialog.doneTitle')} testId="import-report" />}
        </DialogBody>
        <DialogFooter>
          <Button variant="secondary" disabled={busy} data-testid="import-close" onClick={() => change(false)}>
            {t(state.kind === 'done' ? 'importDialog.close' : 'importDialog.cancel')}
          </Button>
          {state.kind !== 'done' && (
            <Button variant="primary" disabled={state.kind !== 'chosen'} data-testid="import-replace" onClick={() => void replace()}>
              {t('importDialog.replace')}
            </Button>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
