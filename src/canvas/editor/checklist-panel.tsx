import { useReactFlow } from '@xyflow/react';
import { CircleAlert, TriangleAlert, X } from 'lucide-react';
import { useEffect, useRef, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { isTypingTarget, keyTargetOf } from '../commands';
import { absolutePosition } from '../store/operations';
import { useFlowStoreApi } from '../react/use-flow-store-api';
import { useFlowStore } from '../react/use-flow-store';
import type { ChecklistEntry } from '../checklist';
import { useChecklist, useEditorServices, useEditorUi } from './editor-context';
import s from './editor.module.css';

/**
 * Selects a node and centres the viewport on it (a checklist entry, a search result).
 * Returns whether the node exists.
 */
export function useFocusNode() {
  const store = useFlowStoreApi();
  const flow = useReactFlow();
  return (nodeId: string) => {
    const doc = store.getState().document;
    const node = doc.nodes.find((n) => n.id === nodeId);
    if (!node) return false;
    store.setSelection({ nodes: [nodeId], edges: [] });
    const at = absolutePosition(doc, nodeId);
    const measured = flow.getNode(nodeId)?.measured;
    const w = measured?.width ?? node.width ?? 240;
    const h = measured?.height ?? node.height ?? 60;
    void flow.setCenter(at.x + w / 2, at.y + h / 2, { zoom: Math.max(flow.getZoom(), 0.8), duration: 200 });
    return true;
  };
}

/**
 * Centres the canvas on the node the store was asked to focus (from outside the canvas), then clears
 * the request. Two frames later: the selection opens the inspector, which narrows the canvas first.
 * Returns the node last centred, which keep-in-view leaves alone (it would cut the glide short).
 */
export function useFocusRequests(): RefObject<string | null> {
  const store = useFlowStoreApi();
  const focus = useFocusNode();
  const request = useFlowStore((st) => st.view.focus);
  const centred = useRef<string | null>(null);
  useEffect(() => {
    if (!request) return;
    centred.current = request.nodeId;
    let frame = requestAnimationFrame(
      () =>
        (frame = requestAnimationFrame(() => {
          focus(request.nodeId);
          store.clearFocus();
        })),
    );
    return () => cancelAnimationFrame(frame);
  }, [request, focus, store]);
  return centred;
}

/** The toolbar's checklist button toggles the panel by its own click. */
const TOGGLE = '[data-testid="toolbar-checklist"]';

/**
 * Closes the open panel on Escape (unless typed in a field or editor, which keeps its keys) and on
 * a press anywhere outside it.
 */
function useDismiss(open: boolean, panel: RefObject<HTMLElement | null>, close: () => void) {
  const latest = useRef(close);
  latest.current = close;
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented || isTypingTarget(keyTargetOf(e))) return;
      latest.current();
    };
    const onPointer = (e: PointerEvent) => {
      const target = e.target instanceof Element ? e.target : null;
      if (target && (panel.current?.contains(target) || target.closest(TOGGLE))) return;
      latest.current();
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer, true);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer, true);
    };
  }, [open, panel]);
}

/** The checklist: every entry with its node's title; clicking one selects and centres the node. */
export function ChecklistPanel() {
  const { t } = useTranslation(['editor']);
  const { ui } = useEditorServices();
  const open = useEditorUi((u) => u.checklistOpen);
  const entries = useChecklist((c) => c.entries);
  const store = useFlowStoreApi();
  const focus = useFocusNode();
  const panel = useRef<HTMLDivElement>(null);
  useDismiss(open, panel, () => ui.setState({ checklistOpen: false }));
  if (!open) return null;
  const title = (e: ChecklistEntry) => {
    const n = store.getState().document.nodes.find((x) => x.id === e.nodeId);
    const p = n && store.registry.get(n.kind);
    return n?.title || (p ? t(`${p.ns}:${p.titleKey}` as never) : e.nodeId);
  };
  return (
    <div ref={panel} className={s.checklistPanel} role="dialog" aria-label={t('checklist.title')} data-testid="checklist-panel">
      <div className={s.panelHeader}>
        <h2>{t('checklist.title')}</h2>
        <button type="button" className={s.iconButton} aria-label={t('checklist.close')} onClick={() => ui.setState({ checklistOpen: false })}>
          <X aria-hidden="true" />
        </button>
      </div>
      {entries.length === 0 ? (
        <p className={s.panelEmpty}>{t('checklist.empty')}</p>
      ) : (
        <ul className={s.checklistList}>
          {entries.map((e) => (
            <li key={e.id}>
              <button type="button" className={s.checklistEntry} data-severity={e.severity} data-testid={`checklist-entry-${e.nodeId}`} onClick={() => focus(e.nodeId)}>
                {e.severity === 'error' ? <CircleAlert aria-label={t('checklist.error')} /> : <TriangleAlert aria-label={t('checklist.warning')} />}
                <span>
                  <strong>{title(e)}</strong>
                  <span>{String(t(`${e.ns}:${e.key}` as never, e.params as never))}</span>
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
