import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { App } from '../../../../schemas/app';
import { AppIcon } from '../../../kit/widgets/icon-picker';
import { StatusBadge } from '../../../kit/widgets/status-badge';
import { ModeBadge } from '../../workspace/apps/app-cards';
import { SaveStatus, type SaveState } from './save-status';
import s from './editor-header.module.css';

export interface EditorHeaderProps {
  app: Pick<App, 'id' | 'workspace_id' | 'name' | 'type' | 'icon' | 'status'>;
  saveStatus?: SaveState | null;
  /** Tooltip of the save status. */
  saveDetail?: string;
  /** Extra controls before the save status (editor actions). */
  actions?: ReactNode;
}

/** The path of a project space's app list. */
export const appListPath = (workspaceId: string) => `/operation/workspace/${encodeURIComponent(workspaceId)}/app`;

/**
 * The app editor's header row: back to the project space's app list, the app's icon, name, mode and
 * status, and the autosave indicator.
 */
export function EditorHeader({ app, saveStatus, saveDetail, actions }: EditorHeaderProps) {
  const { t } = useTranslation('apps');
  return (
    <div className={s.header} data-testid="editor-header" data-app-id={app.id}>
      <Link to={appListPath(app.workspace_id)} className={s.back} aria-label={t('editor.back')} title={t('editor.back')} data-testid="editor-back">
        <ArrowLeft aria-hidden="true" />
      </Link>
      <AppIcon value={app.icon} size={32} />
      <div className={s.identity}>
        <h1 className={s.name} title={app.name}>
          {app.name}
        </h1>
        <span className={s.badges}>
          <ModeBadge type={app.type} />
          {app.status === 'inactive' && <StatusBadge value={app.status} label={t('status.inactive')} />}
        </span>
      </div>
      <div className={s.grow} />
      {actions}
      <SaveStatus status={saveStatus} detail={saveDetail} />
    </div>
  );
}
