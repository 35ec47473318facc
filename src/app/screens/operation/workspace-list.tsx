import { Ellipsis, Pencil, Trash2, Users } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Workspace } from '../../../../schemas/workspace';
// Each primitive from its own file: the ui barrel would bring every component into the console home (issue 28).
import { Badge } from '../../../ui/badge';
import { Button } from '../../../ui/button';
import { Card } from '../../../ui/card';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '../../../ui/dropdown-menu';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../ui/table';
import { projectTabPath } from '../../shell/project-tabs';
import { WorkspaceIcon } from '../../shell/workspace-icon';
import s from './operation.module.css';
import { seededName } from '../../../i18n/seeded';

export type WorkspaceView = 'cards' | 'table';

export interface WorkspaceListProps {
  workspaces: Workspace[];
  view: WorkspaceView;
  onEdit(workspace: Workspace): void;
  onDelete(workspace: Workspace): void;
}

/** Where a project space opens: its application list. */
export const workspaceHome = (id: string) => projectTabPath(id, 'app');

function formatDate(iso: string, lng: string) {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleDateString(lng === 'zh' ? 'zh-CN' : 'en', { year: 'numeric', month: 'short', day: 'numeric' });
}

function RoleBadge({ role }: { role: Workspace['role_type'] }) {
  const { t } = useTranslation(['workspace', 'common', 'errors']);
  return <Badge variant={role === 'owner' ? 'primary' : role === 'admin' ? 'info' : 'neutral'}>{t(`role.${role}`)}</Badge>;
}

/** Edit and delete, for the owner only (spec 6). */
function RowActions({ workspace, onEdit, onDelete }: { workspace: Workspace } & Pick<WorkspaceListProps, 'onEdit' | 'onDelete'>) {
  const { t } = useTranslation(['workspace', 'common', 'errors']);
  if (workspace.role_type !== 'owner') return null;
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="sm" iconOnly aria-label={t('list.actionsFor', { name: seededName(workspace.name) })} data-testid="workspace-actions">
          <Ellipsis aria-hidden="true" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuItem icon={<Pencil aria-hidden="true" />} onSelect={() => onEdit(workspace)} data-testid="workspace-edit">
          {t('common:actions.edit')}
        </DropdownMenuItem>
        <DropdownMenuItem variant="danger" icon={<Trash2 aria-hidden="true" />} onSelect={() => onDelete(workspace)} data-testid="workspace-delete">
          {t('common:actions.delete')}
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

/** The operation home's project spaces, as cards or as a table. */
export function WorkspaceList({ workspaces, view, onEdit, onDelete }: WorkspaceListProps) {
  const { t, i18n } = useTranslation(['workspace', 'common', 'errors']);
  if (view === 'table') {
    return (
      <Table data-testid="workspace-table">
        <TableHeader>
          <TableRow>
            <TableHead>{t('list.name')}</TableHead>
            <TableHead>{t('list.description')}</TableHead>
            <TableHead>{t('list.myRole')}</TableHead>
            <TableHead>{t('list.members')}</TableHead>
            <TableHead>{t('list.updated')}</TableHead>
            <TableHead className={s.actionsHead}>
              <span className={s.srOnly}>{t('list.actions')}</span>
            </TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {workspaces.map((w) => (
            <TableRow key={w.id} data-testid="workspace-row" data-workspace-id={w.id}>
              <TableCell>
                <Link to={workspaceHome(w.id)} className={s.rowLink} data-testid="workspace-link">
                  <WorkspaceIcon icon={w.icon} name={w.name} size="xs" />
                  <span className={s.ellipsis}>{seededName(w.name)}</span>
                </Link>
              </TableCell>
              <TableCell className={s.descriptionCell}>{w.description || '—'}</TableCell>
              <TableCell>
                <RoleBadge role={w.role_type} />
              </TableCell>
              <TableCell>{w.member_count}</TableCell>
              <TableCell>{formatDate(w.updated_at, i18n.language)}</TableCell>
              <TableCell className={s.actionsCell}>
                <RowActions workspace={w} onEdit={onEdit} onDelete={onDelete} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    );
  }
  return (
    <ul className={s.grid} role="list" data-testid="workspace-grid">
      {workspaces.map((w) => (
        <li key={w.id}>
          <Card interactive className={s.card} data-testid="workspace-card" data-workspace-id={w.id}>
            <div className={s.cardTop}>
              <WorkspaceIcon icon={w.icon} name={w.name} size="lg" />
              <div className={s.cardHeading}>
                <Link to={workspaceHome(w.id)} className={s.cardLink} data-testid="workspace-link">
                  {seededName(w.name)}
                </Link>
                <RoleBadge role={w.role_type} />
              </div>
              <div className={s.cardActions}>
                <RowActions workspace={w} onEdit={onEdit} onDelete={onDelete} />
              </div>
            </div>
            <p className={s.cardDescription}>{seededName(w.description) || t('list.noDescription')}</p>
            <div className={s.cardMeta}>
              <span className={s.metaItem}>
                <Users aria-hidden="true" />
                {t('list.memberCount', { count: w.member_count })}
              </span>
              <span>{t('list.updatedAt', { date: formatDate(w.updated_at, i18n.language) })}</span>
            </div>
          </Card>
        </li>
      ))}
    </ul>
  );
}
