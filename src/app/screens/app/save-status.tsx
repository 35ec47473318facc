import { AlertTriangle, Check, CloudOff, Loader2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { cn } from '../../../ui';
import s from './editor-header.module.css';

/** Where the draft's autosave stands (issue 4: saved, saving, failed, or refused as based on an older draft). */
export type SaveState = 'saved' | 'saving' | 'failed' | 'conflict';

const ICONS = { saved: Check, saving: Loader2, failed: CloudOff, conflict: AlertTriangle } as const;

export interface SaveStatusProps {
  /** Nothing is shown while null (before the first change). */
  status: SaveState | null | undefined;
  /** A longer explanation for the tooltip (for example who saved the newer draft). */
  detail?: string;
  className?: string;
}

/**
 * The autosave indicator of the editor header. The canvas sets the status through the editor's outlet
 * context (`useEditorContext().setSaveStatus`); this only shows it, politely announced.
 * @example <SaveStatus status="saving" />
 */
export function SaveStatus({ status, detail, className }: SaveStatusProps) {
  const { t } = useTranslation('apps');
  if (!status) return null;
  const Icon = ICONS[status];
  return (
    <span
      role="status"
      aria-live="polite"
      aria-label={`${t('editor.saveStatusLabel')}: ${t(`editor.saveStatus.${status}`)}`}
      title={detail}
      className={cn(s.saveStatus, className)}
      data-status={status}
      data-testid="save-status"
    >
      <Icon aria-hidden="true" className={status === 'saving' ? s.spin : undefined} />
      {t(`editor.saveStatus.${status}`)}
    </span>
  );
}
