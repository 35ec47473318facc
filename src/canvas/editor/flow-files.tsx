import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FlowDocument } from '../../../schemas/flow';
import { Button, Dialog, DialogBody, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, toast } from '../../ui';
import { exportFlowYaml, importFlowFile, type DifyImport, type FlowFileAppInput } from '../dsl';
import { useFlowStoreApi } from '../react/use-flow-store-api';
import type { FlowStore } from '../store/create-flow-store';
import s from './editor.module.css';

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
 * Puts an imported document in place of the flow as ONE undoable edit (undo brings the old flow
 * back). The DSL module reads whole flows, so an import replaces; it never merges.
 */
export function replaceWithImport(store: FlowStore, doc: FlowDocument): boolean {
  const changed = store.edit((d) => {
    d.nodes = doc.nodes;
    d.edges = doc.edges;
    d.variables = doc.variables;
    d.notes = doc.notes;
  });
  store.setSelection({ nodes: [], edges: [] });
  return changed;
}

export interface ImportDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  /** Called after the flow was replaced (the editor fits the view). */
  onImported?(): void;
}

/**
 * Import of a flow file: our YAML or a Dify DSL file (told apart by content). Shows why a file
 * cannot be imported, or what the import will do: the node count, every Dify node it could not map
 * (by title and type) and its notes; "Replace" then swaps the flow in as one undo step.
 */
export function ImportDialog({ open, onOpenChange, onImported }: ImportDialogProps) {
  const { t } = useTranslation(['flowtools', 'dsl']);
  const store = useFlowStoreApi();
  const input = useRef<HTMLInputElement>(null);
  const [result, setResult] = useState<DifyImport | { ok: false; read: true } | null>(null);
  const change = (o: boolean) => {
    if (!o) setResult(null);
    onOpenChange(o);
  };
  const onFile = async (file: File | undefined) => {
    if (!file) return;
    try {
      const text = await file.text();
      setResult(importFlowFile(text, store.registry, { mode: store.getState().document.mode }));
    } catch {
      setResult({ ok: false, read: true });
    }
    if (input.current) input.current.value = '';
  };
  const replace = () => {
    if (!result?.ok) return;
    replaceWithImport(store, result.document);
    toast.success(t('importDialog.done', { count: result.document.nodes.length }));
    change(false);
    onImported?.();
  };
  const msg = (m: { key: string; params?: Record<string, string | number> }) => (t as (k: string, o?: object) => string)(`dsl:${m.key}`, m.params);
  return (
    <Dialog open={open} onOpenChange={change}>
      <DialogContent size="lg" data-testid="import-dialog" closeLabel={t('importDialog.cancel')}>
        <DialogHeader>
          <DialogTitle>{t('importDialog.title')}</DialogTitle>
          <DialogDescription>{t('importDialog.hint')}</DialogDescription>
        </DialogHeader>
        <DialogBody className={s.importBody}>
          <input ref={input} type="file" accept=".yml,.yaml,application/yaml,text/yaml" hidden data-testid="import-file" onChange={(e) => void onFile(e.target.files?.[0])} />
          <div>
            <Button variant="secondary" data-testid="import-pick" onClick={() => input.current?.click()}>
              {t('importDialog.pick')}
            </Button>
          </div>
          {result && !result.ok && (
            <div role="alert" data-testid="import-errors">
              <p>
                <strong>{t('importDialog.failedTitle')}</strong>
              </p>
              <ul className={s.dialogList}>{'read' in result ? <li>{t('importDialog.readFailed')}</li> : result.errors.map((e, i) => <li key={i}>{msg(e)}</li>)}</ul>
            </div>
          )}
          {result?.ok && (
            <div data-testid="import-summary">
              <p>
                <strong>{t('importDialog.summaryTitle')}</strong> {t('dsl:summary.imported', { count: result.document.nodes.length })}
              </p>
              {result.unmapped.length > 0 && (
                <>
                  <p>{t('dsl:summary.unmappedTitle', { count: result.unmapped.length })}</p>
                  <ul className={s.dialogList} data-testid="import-unmapped">
                    {result.unmapped.map((u) => (
                      <li key={u.id}>{t('dsl:summary.unmappedItem', { title: u.title || u.id, type: u.type })}</li>
                    ))}
                  </ul>
                </>
              )}
              {result.warnings.length > 0 && (
                <>
                  <p>{t('dsl:summary.warningsTitle')}</p>
                  <ul className={s.dialogList} data-testid="import-warnings">
                    {result.warnings.map((w, i) => (
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
            {t('importDialog.cancel')}
          </Button>
          <Button variant="primary" disabled={!result?.ok} data-testid="import-replace" onClick={replace}>
            {t('importDialog.replace')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
