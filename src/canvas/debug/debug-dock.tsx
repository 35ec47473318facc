import { Bug } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isChatMode } from '../../../schemas/flow';
import { useStore } from 'zustand';
import type { AutosaveController } from '../autosave';
import type { FlowStore } from '../store/create-flow-store';
import { DebugPane } from './debug-pane';
import s from './debug.module.css';

export interface DebugDockProps {
  store: FlowStore;
  appId: string;
  workspaceId: string;
  autosave?: AutosaveController;
}

/**
 * The debug pane's place beside the canvas: a narrow rail with the "Debug" (chat apps) or "Run"
 * (workflows) button while closed, the pane while open. Put it after the editor in a flex row.
 * @example <div style={{ display: 'flex' }}><FlowEditor store={store} /><DebugDock store={store} appId={app.id} workspaceId={app.workspace_id} autosave={autosave} /></div>
 */
export function DebugDock({ store, appId, workspaceId, autosave }: DebugDockProps) {
  const { t } = useTranslation('debug');
  const [open, setOpen] = useState(false);
  const chat = useStore(store.api, (st) => isChatMode(st.document.mode));
  if (open) return <DebugPane store={store} appId={appId} workspaceId={workspaceId} autosave={autosave} onClose={() => setOpen(false)} />;
  const label = chat ? t('open') : t('openRun');
  return (
    <div className={s.rail}>
      <button type="button" className={s.railButton} onClick={() => setOpen(true)} aria-label={label} title={label} data-testid="debug-open">
        <Bug aria-hidden="true" />
        <span>{label}</span>
      </button>
    </div>
  );
}
