/** One GBI session in the ask page's list: open, open on its own page (session-list-item), rename, delete. */
import { ExternalLink, Pencil, Trash2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { GbiSession } from '../../../../schemas/gbi';
import { Link } from 'react-router';
import { Button, buttonClass } from '../../../ui/button';
import { portalPaths } from '../paths';
import s from './gbi.module.css';

export function GbiSessionListItem({ session, active, onOpen, onRename, onDelete }: { session: GbiSession; active: boolean; onOpen(): void; onRename(): void; onDelete(): void }) {
  const { t } = useTranslation('portal');
  return (
    <div className={s.session} data-active={active || undefined} data-testid="gbi-session">
      <button type="button" className={s.sessionName} onClick={onOpen} title={session.name} aria-current={active || undefined}>
        {session.name}
      </button>
      <Link
        to={`${portalPaths.gbiAsk}/session-list-item?session=${encodeURIComponent(session.id)}`}
        className={buttonClass({ size: 'sm', variant: 'ghost', iconOnly: true })}
        aria-label={t('gbi.openSession')}
        title={t('gbi.openSession')}
      >
        <ExternalLink aria-hidden="true" />
      </Link>
      <Button size="sm" variant="ghost" iconOnly aria-label={t('gbi.rename')} icon={<Pencil aria-hidden="true" />} onClick={onRename} />
      <Button size="sm" variant="ghost" iconOnly aria-label={t('gbi.deleteSession')} icon={<Trash2 aria-hidden="true" />} onClick={onDelete} />
    </div>
  );
}
