import { CircleAlert } from 'lucide-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorCode } from '../../../schemas/errors';
import { isApiError } from '../../api/request';
import { hasText, tDynamic } from '../../i18n';
import { registerPluginTexts } from '../editor/plugin-texts';
import { computeChecklist, type ChecklistEntry } from '../checklist';
import type { FlowStore } from '../store/create-flow-store';
import type { DebugRunError } from './use-debug-run';
import s from './debug.module.css';

/** One compile issue of a refused run (src/server/runs/app-flow.ts). */
interface RunIssue {
  node_id: string | null;
  message: string;
}

/**
 * The issues of a draft run the server refused because the flow does not pass its checks
 * (VALIDATION-1000 whose data lists them); null for any other failure.
 */
export function blockingIssuesOf(error: DebugRunError | null): RunIssue[] | null {
  if (error?.kind !== 'request' || !isApiError(error.error, ErrorCode.PARAM)) return null;
  const data = error.error.data;
  if (!Array.isArray(data) || !data.length || !data.every((i) => typeof i === 'object' && i !== null && 'node_id' in i)) return null;
  return data as RunIssue[];
}

/** The inspector's control for an entry's field (the schema form marks each field with data-field). */
function focusField(path: ChecklistEntry['path']) {
  if (!path?.length) return;
  // The inspector mounts for the new selection in the next frames.
  let tries = 0;
  const attempt = () => {
    const field = document.querySelector<HTMLElement>(`[data-field="${CSS.escape(String(path[0]))}"]`);
    const control = field?.querySelector<HTMLElement>('input, textarea, select, [contenteditable="true"], button, [tabindex]');
    if (control) return control.focus();
    if (++tries < 20) setTimeout(attempt, 25);
  };
  setTimeout(attempt, 0);
}

interface Line {
  key: string;
  nodeId: string | null;
  text: string;
  path?: ChecklistEntry['path'];
}

/**
 * Replaces "Parameter error" when the checklist blocks a run: the checklist's errors as the canvas
 * computes them (they name the field), or the server's issues when the canvas finds none; each line
 * selects its node (the inspector opens), centres the canvas on it and focuses the field it names.
 */
export function ChecklistBlocked({ store, issues }: { store: FlowStore; issues: RunIssue[] }) {
  const { t, i18n } = useTranslation(['debug', 'editor']);
  // The kinds' titles and issue texts (the pane may open where no editor registered them).
  useMemo(() => registerPluginTexts(i18n, store.registry), [i18n, store.registry]);
  const lines = useMemo<Line[]>(() => {
    const doc = store.getState().document;
    const local = computeChecklist(doc, store.registry).filter((e) => e.severity === 'error');
    if (local.length) return local.map((e) => ({ key: e.id, nodeId: e.nodeId, path: e.path, text: tDynamic(`${e.ns}:${e.key}`, e.params) }));
    // Compile messages of checklist issues are i18n keys ("ns:key"); the others are sentences.
    return issues.map((i, n) => ({ key: String(n), nodeId: i.node_id, text: hasText(i.message) ? tDynamic(i.message) : i.message }));
  }, [store, issues]);
  const title = (nodeId: string | null) => {
    const node = nodeId ? store.getState().document.nodes.find((n) => n.id === nodeId) : undefined;
    const plugin = node && store.registry.get(node.kind);
    return node?.title || (plugin ? tDynamic(`${plugin.ns}:${plugin.titleKey}`) : (nodeId ?? t('debug:blocked.flow')));
  };
  const open = (line: Line) => {
    if (!line.nodeId || !store.getState().document.nodes.some((n) => n.id === line.nodeId)) return;
    // Selected, and the canvas centred on it (the editor honours the request).
    store.focusNode(line.nodeId);
    focusField(line.path);
  };
  return (
    <section className={s.blocked} role="alert" data-testid="debug-checklist-blocked">
      <p className={s.blockedTitle}>{t('debug:blocked.title')}</p>
      <ul className={s.blockedList}>
        {lines.map((l) => (
          <li key={l.key}>
            <button type="button" className={s.blockedEntry} data-testid={`debug-checklist-${l.nodeId ?? 'flow'}`} onClick={() => open(l)}>
              <CircleAlert aria-hidden="true" />
              <span>
                <strong>{title(l.nodeId)}</strong>
                <span>{l.text}</span>
              </span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
