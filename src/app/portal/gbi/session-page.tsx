/**
 * /portal/gbi/session-list-item?session=…: one GBI session's questions opened on their own (a deep
 * link from the ask page's session list): each with its SQL, chart, table and answer, read-only.
 * The same message view as the ask page; asking more goes back to the ask page.
 */
import { ArrowLeft } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import type { GbiMessage, GbiSession } from '../../../../schemas/gbi';
import { listGbiMessages, listGbiSessions } from '../../../api/gbi';
import { buttonClass } from '../../../ui/button';
import { EmptyState } from '../../../ui/empty-state';
import { Spinner } from '../../../ui/spinner';
import { Page, PageHeader } from '../../shell/page';
import { settleLoadError } from '../load-error';
import { portalPaths } from '../paths';
import { GbiMessageView } from './gbi-message';
import { SpacePicker, useGbiSpace } from './use-gbi-space';
import s from './gbi.module.css';

export default function GbiSessionPage() {
  const { t } = useTranslation(['portal', 'pages']);
  const space = useGbiSpace();
  const ws = space.workspaceId;
  const id = useSearchParams()[0].get('session');
  const [session, setSession] = useState<GbiSession | null | undefined>(undefined);
  const [messages, setMessages] = useState<GbiMessage[] | null>(null);

  useEffect(() => {
    if (!ws) return;
    const ctrl = new AbortController();
    const opts = { workspaceId: ws, signal: ctrl.signal, reaction: 'silent' as const };
    listGbiSessions(opts).then((list) => {
      const found = list.find((x) => x.id === id) ?? null;
      setSession(found);
      if (found) listGbiMessages(found.id, opts).then(setMessages, settleLoadError);
    }, settleLoadError);
    return () => ctrl.abort();
  }, [ws, id]);

  const back = (
    <Link to={`${portalPaths.gbiAsk}/ask`} className={buttonClass({ size: 'sm' })}>
      <ArrowLeft aria-hidden="true" />
      {t('gbi.backToAsk')}
    </Link>
  );
  if (space.spaces && !ws) return <EmptyState title={t('gbi.noWorkspace')} />;
  return (
    <Page data-testid="gbi-session-page">
      <PageHeader
        title={session?.name ?? t('pages:portal.gbiSessionList')}
        actions={
          <div className={s.row}>
            <SpacePicker space={space} />
            {back}
          </div>
        }
      />
      {session === undefined || (session && messages === null) ? (
        <Spinner />
      ) : session === null ? (
        <EmptyState title={t('gbi.sessionMissing')} />
      ) : messages!.length === 0 ? (
        <EmptyState title={t('gbi.emptyChat')} />
      ) : (
        <div className={s.messages} data-testid="gbi-messages">
          {messages!.map((m) => (
            <GbiMessageView key={m.id} message={m} />
          ))}
        </div>
      )}
    </Page>
  );
}
