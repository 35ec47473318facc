import { useReactFlow } from '@xyflow/react';
import { Braces, ClipboardCheck, Download, LayoutGrid, Maximize, MessagesSquare, Minus, Plus, Redo2, Sparkles, SquarePlus, Undo2, Upload } from 'lucide-react';
import { isChatMode } from '../../../schemas/flow';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatShortcut } from '../commands';
import { useFlowStore } from '../react/use-flow-store';
import { useChecklist, useEditorServices, useEditorUi } from './editor-context';
import s from './editor.module.css';

function ToolButton({ label, onClick, disabled, pressed, testId, children }: { label: string; onClick(): void; disabled?: boolean; pressed?: boolean; testId: string; children: ReactNode }) {
  return (
    <button type="button" className={s.toolButton} aria-label={label} title={label} disabled={disabled} aria-pressed={pressed} data-testid={testId} onClick={onClick}>
      {children}
    </button>
  );
}

export interface ToolbarProps {
  /** Shown only when the editor was given a layout function. */
  canLayout: boolean;
  onExport?: () => void;
  onImport?: () => void;
  /** Opens the environment or conversation variables dialog (the latter shown in chat modes only). */
  onVariables?: (list: 'env' | 'conversation') => void;
  /** Opens the app's features (chat modes only: opening statement, suggested questions…). */
  onFeatures?: () => void;
}

/** Add node, undo/redo (disabled with nothing to undo), optional layout/export/import, the checklist with its count. */
export function Toolbar({ canLayout, onExport, onImport, onVariables, onFeatures }: ToolbarProps) {
  const { t } = useTranslation(['editor', 'canvas', 'flowtools', 'features']);
  const chat = useFlowStore((st) => isChatMode(st.document.mode));
  const { manager, ui } = useEditorServices();
  const canUndo = useFlowStore((st) => st.history.canUndo && !st.readOnly);
  const canRedo = useFlowStore((st) => st.history.canRedo && !st.readOnly);
  const readOnly = useFlowStore((st) => st.readOnly);
  const paletteOpen = useEditorUi((u) => u.paletteOpen);
  const checklistOpen = useEditorUi((u) => u.checklistOpen);
  const count = useChecklist((c) => c.entries.length);
  const errors = useChecklist((c) => c.entries.some((e) => e.severity === 'error'));
  const shortcut = (id: string) => {
    const sc = manager.get(id)?.shortcut;
    const first = typeof sc === 'string' ? sc : sc?.[0];
    return first ? ` (${formatShortcut(first, manager.isMac)})` : '';
  };
  return (
    <div className={s.toolbar} role="toolbar" aria-label={t('toolbar.label')} data-testid="canvas-toolbar">
      {!readOnly && (
        <ToolButton label={t('toolbar.addNode')} pressed={paletteOpen} testId="toolbar-add-node" onClick={() => ui.setState({ paletteOpen: !paletteOpen, paletteAt: null })}>
          <SquarePlus aria-hidden="true" />
        </ToolButton>
      )}
      <ToolButton label={t('toolbar.undo') + shortcut('undo')} disabled={!canUndo} testId="toolbar-undo" onClick={() => void manager.execute('undo')}>
        <Undo2 aria-hidden="true" />
      </ToolButton>
      <ToolButton label={t('toolbar.redo') + shortcut('redo')} disabled={!canRedo} testId="toolbar-redo" onClick={() => void manager.execute('redo')}>
        <Redo2 aria-hidden="true" />
      </ToolButton>
      {canLayout && !readOnly && (
        <ToolButton label={t('toolbar.layout')} testId="toolbar-layout" onClick={() => void manager.execute('layout')}>
          <LayoutGrid aria-hidden="true" />
        </ToolButton>
      )}
      {onExport && (
        <ToolButton label={t('toolbar.export')} testId="toolbar-export" onClick={onExport}>
          <Download aria-hidden="true" />
        </ToolButton>
      )}
      {onImport && !readOnly && (
        <ToolButton label={t('toolbar.import')} testId="toolbar-import" onClick={onImport}>
          <Upload aria-hidden="true" />
        </ToolButton>
      )}
      {onVariables && (
        <ToolButton label={t('flowtools:toolbar.envVariables')} testId="toolbar-env-variables" onClick={() => onVariables('env')}>
          <Braces aria-hidden="true" />
        </ToolButton>
      )}
      {onVariables && chat && (
        <ToolButton label={t('flowtools:toolbar.conversationVariables')} testId="toolbar-conversation-variables" onClick={() => onVariables('conversation')}>
          <MessagesSquare aria-hidden="true" />
        </ToolButton>
      )}
      <span className={s.toolSeparator} />
      {onFeatures && chat && (
        <button type="button" className={s.checklistButton} title={t('features:openHint')} data-testid="toolbar-features" onClick={onFeatures}>
          <Sparkles aria-hidden="true" />
          {t('features:open')}
        </button>
      )}
      <button
        type="button"
        className={s.checklistButton}
        data-has-errors={errors || undefined}
        aria-pressed={checklistOpen}
        data-testid="toolbar-checklist"
        onClick={() => ui.setState({ checklistOpen: !checklistOpen })}
      >
        <ClipboardCheck aria-hidden="true" />
        {t('toolbar.checklist')}
        <span className={s.count} data-testid="checklist-count">
          {count}
        </span>
      </button>
    </div>
  );
}

/**
 * How every fit view of the editor frames the flow: never above 1×, or a flow of two nodes would
 * open (or be fitted) at the canvas's 2× maximum.
 */
export const FIT_VIEW_OPTIONS = { padding: 0.2, maxZoom: 1 } as const;

/** Zoom in/out and fit view, with translated labels. */
export function ZoomControls() {
  const { t } = useTranslation('editor');
  const flow = useReactFlow();
  return (
    <div className={s.zoom} data-testid="zoom-controls">
      <ToolButton label={t('toolbar.zoomIn')} testId="zoom-in" onClick={() => void flow.zoomIn()}>
        <Plus aria-hidden="true" />
      </ToolButton>
      <ToolButton label={t('toolbar.zoomOut')} testId="zoom-out" onClick={() => void flow.zoomOut()}>
        <Minus aria-hidden="true" />
      </ToolButton>
      <ToolButton label={t('toolbar.fitView')} testId="fit-view" onClick={() => void flow.fitView({ ...FIT_VIEW_OPTIONS, duration: 200 })}>
        <Maximize aria-hidden="true" />
      </ToolButton>
    </div>
  );
}
