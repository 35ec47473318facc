/**
 * The console's notification bell (issue 33): approvals waiting for the user, and decisions on their
 * submissions they have not seen yet; a click opens the approvals page. It counts on start, every
 * minute, when the window regains focus and after an approval changed here (approval-kit.ts).
 */
import { Bell } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { approvalNotifications } from '../../api/approvals';
import { Button } from '../../ui/button';
import s from './top-bar.module.css';

const EVERY_MS = 60_000;
const CHANGED = 'weft:approvals-changed';

export function ApprovalBell() {
  const { t } = useTranslation(['shell', 'common', 'auth']);
  const navigate = useNavigate();
  const [counts, setCounts] = useState({ to_approve: 0, decided: 0 });

  useEffect(() => {
    let live = true;
    // Quiet: the bell never interrupts the page with an error of its own.
    const count = () =>
      approvalNotifications({ reaction: 'silent' }).then(
        (c) => live && setCounts(c),
        () => {},
      );
    void count();
    const timer = window.setInterval(count, EVERY_MS);
    window.addEventListener('focus', count);
    window.addEventListener(CHANGED, count);
    return () => {
      live = false;
      window.clearInterval(timer);
      window.removeEventListener('focus', count);
      window.removeEventListener(CHANGED, count);
    };
  }, []);

  const total = counts.to_approve + counts.decided;
  const label = t('approvals.count', { toApprove: counts.to_approve, decided: counts.decided });
  return (
    <Button
      variant="ghost"
      size="sm"
      className={s.bell}
      aria-label={label}
      title={label}
      onClick={() => navigate(counts.to_approve === 0 && counts.decided > 0 ? '/operation/approvals?box=mine' : '/operation/approvals')}
      data-testid="approval-bell"
      data-count={total}
    >
      <Bell aria-hidden="true" />
      {total > 0 && (
        <span className={s.bellCount} data-testid="approval-bell-count">
          {total > 99 ? '99+' : total}
        </span>
      )}
    </Button>
  );
}
