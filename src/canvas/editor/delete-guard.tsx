import { useTranslation } from 'react-i18next';
import { Button, Dialog, DialogBody, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../ui';
import type { AnyCanvasCommand } from '../commands';
import { deleteSelectionCommand } from '../commands/edit-commands';
import { referencesTo, type IncomingReference } from '../references';
import { useFlowStoreApi } from '../react/use-flow-store-api';
import { deletionSet } from '../store/operations';
import { useEditorServices, useEditorUi, type EditorServices } from './editor-context';
import s from './editor.module.css';

/** A delete waiting for the builder's word: what it removes and the references it breaks. */
export interface PendingDelete {
  references: readonly IncomingReference[];
}

/**
 * The editor's delete: like the built-in one, but when other nodes reference what goes (selectors
 * or `{{#node.path#}}` in texts) it first asks, listing every reference that breaks. `confirmed`
 * deletes without asking (the dialog's button).
 */
export function guardedDeleteCommand(ui: EditorServices['ui']): AnyCanvasCommand {
  const base = deleteSelectionCommand;
  return {
    ...base,
    perform: (store, args, ctx) => {
      const state = store.getState();
      const gone = deletionSet(state.document, ctx.registry, state.view.selection.nodes);
      const references = gone.size ? referencesTo(state.document, ctx.registry, gone) : [];
      if (references.length && !(args as { confirmed?: boolean } | undefined)?.confirmed) {
        ui.setState({ pendingDelete: { references } });
        return false;
      }
      return base.perform(store, undefined, ctx);
    },
  };
}

/** The confirmation of a delete that breaks references; each one links to its node. */
export function DeleteConfirmDialog() {
  const { t } = useTranslation('flowtools');
  const { manager, ui } = useEditorServices();
  const store = useFlowStoreApi();
  const pending = useEditorUi((u) => u.pendingDelete);
  const close = () => ui.setState({ pendingDelete: null });
  const titleOf = (id: string) => store.getState().document.nodes.find((n) => n.id === id)?.title || id;
  return (
    <Dialog open={Boolean(pending)} onOpenChange={(o) => !o && close()}>
      <DialogContent size="md" data-testid="delete-confirm" closeLabel={t('deleteDialog.cancel')}>
        <DialogHeader>
          <DialogTitle>{t('deleteDialog.title')}</DialogTitle>
          <DialogDescription>{t('deleteDialog.description', { count: pending?.references.length ?? 0 })}</DialogDescription>
        </DialogHeader>
        <DialogBody>
          <ul className={s.dialogList} data-testid="delete-references">
            {pending?.references.map((r, i) => (
              <li key={i}>
                <button
                  type="button"
                  className={s.linkButton}
                  aria-label={t('deleteDialog.show', { node: titleOf(r.nodeId) })}
                  onClick={() => {
                    close();
                    store.setSelection({ nodes: [r.nodeId], edges: [] });
                  }}
                >
                  {titleOf(r.nodeId)}
                </button>
                {': '}
                <code>{`{{#${r.selector.join('.')}#}}`}</code> <span>({r.path.join('.')})</span>
              </li>
            ))}
          </ul>
        </DialogBody>
        <DialogFooter>
          <Button variant="secondary" data-testid="delete-cancel" onClick={close}>
            {t('deleteDialog.cancel')}
          </Button>
          <Button
            variant="danger"
            data-testid="delete-confirm-button"
            onClick={() => {
              close();
              void manager.execute('deleteSelection', { confirmed: true });
            }}
          >
            {t('deleteDialog.confirm')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
