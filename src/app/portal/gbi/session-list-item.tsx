/** One GBI session in the ask page's list (spec: session-list-item): open, rename, delete. */
import { Pencil, Trash2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { GbiSession } from '../../../../schemas/gbi';
import { Button } from '../../../ui/button';
import s from './gbi.module.css';

export function GbiSessionListItem({ session, active, onOpen, onRename, onDelete }: { session: GbiSession; active: boolean; onOpen(): void; onRename(): void; onDelete(): void }) {
  const { t } = useTranslation('portal');
  return (
    <div className={s.session} data-active={active || undefined} data-testid="gbi-session">
      <button type="button" className={s.sessionName} onClick={onOpen} title={session.name} aria-current={active || undefined}>
        {session.name}
      </button>
      <Button size="sm" variant="ghost" iconOnly aria-label={t('gbi.rename')} icon={<Pencil aria-hidden="true" />} onClick={onRename} />
      <Button size="sm" variant="ghost" iconOnly aria-label={t('gbi.deleteSession')} icon={<Trash2 aria-hidden="true" />} onClick={onDelete} />
    </div>
  );
}
