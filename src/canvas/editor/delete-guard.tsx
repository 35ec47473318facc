import { useTranslation } from 'react-i18next';
import { hasText, tDynamic } from '../../i18n';
import { describeField } from '../../kit/schema/fields';
import type { AnyNodePlugin } from '../../plugin-sdk';
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

/** The i18n key of a config field's label (its schema metadata), per plugin and field. */
const labelKeys = new WeakMap<AnyNodePlugin, Map<string, string | undefined>>();
function labelKeyOf(plugin: AnyNodePlugin, field: string): string | undefined {
  let keys = labelKeys.get(plugin);
  if (!keys) labelKeys.set(plugin, (keys = new Map()));
  if (!keys.has(field)) {
    const shape = (plugin.configSchema as { shape?: Record<string, unknown> }).shape;
    keys.set(field, shape?.[field] ? describeField(field, shape[field] as never).label : undefined);
  }
  return keys.get(field);
}

/**
 * The node's name as the canvas shows it (its title, else its kind's) and a config path as the
 * inspector labels it (the field's label, and the row of a list), instead of ids and paths.
 */
function useNames() {
  const store = useFlowStoreApi();
  const nodeOf = (id: string) => store.getState().document.nodes.find((n) => n.id === id);
  const titleOf = (id: string) => {
    const n = nodeOf(id);
    const plugin = n && store.registry.get(n.kind);
    return n?.title || (plugin ? tDynamic(`${plugin.ns}:${plugin.titleKey}`) : id);
  };
  const fieldOf = (id: string, path: readonly (string | number)[]) => {
    const n = nodeOf(id);
    const plugin = n && store.registry.get(n.kind);
    const key = plugin && labelKeyOf(plugin, String(path[0]));
    const label = plugin && key && hasText(`${plugin.ns}:${key}`) ? tDynamic(`${plugin.ns}:${key}`) : String(path[0]);
    return typeof path[1] === 'number' ? `${label} #${path[1] + 1}` : label;
  };
  return { titleOf, fieldOf };
}

/** The confirmation of a delete that breaks references; each one links to its node. */
export function DeleteConfirmDialog() {
  const { t } = useTranslation('flowtools');
  const { manager, ui } = useEditorServices();
  const store = useFlowStoreApi();
  const pending = useEditorUi((u) => u.pendingDelete);
  const close = () => ui.setState({ pendingDelete: null });
  const { titleOf, fieldOf } = useNames();
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
                <span>{t('deleteDialog.uses', { field: fieldOf(r.nodeId, r.path), source: [titleOf(r.selector[0]), ...r.selector.slice(1)].join(' / ') })}</span>
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
