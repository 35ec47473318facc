/**
 * /portal/single-agent/single-agent-chat[?appId=…]: the chat with one agent app, the one named by
 * `appId`, else the first agent app the user may use (then put in the URL).
 */
import { Bot } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { buttonClass } from '../../../ui/button';
import { EmptyState } from '../../../ui/empty-state';
import { Spinner } from '../../../ui/spinner';
import { settleLoadError } from '../load-error';
import { portalPaths } from '../paths';
import { usePortalApi } from '../portal-api';
import { useConversationParam } from './chat-page';
import { ChatView } from './chat-view';
import s from './chat.module.css';

export default function SingleAgentPage() {
  const { t } = useTranslation('portal');
  const api = usePortalApi();
  const [params, setParams] = useSearchParams();
  const appId = params.get('appId');
  const [conversationId, setConversation] = useConversationParam();
  const [none, setNone] = useState(false);

  useEffect(() => {
    if (appId) return;
    const ctrl = new AbortController();
    api.listApps({ mode: 'agent', page: 1, page_size: 1 }, { signal: ctrl.signal }).then(
      (p) => {
        if (p.list[0]) setParams({ appId: p.list[0].id }, { replace: true });
        else setNone(true);
      },
      (e: unknown) => {
        if (!settleLoadError(e)) setNone(true);
      },
    );
    return () => ctrl.abort();
  }, [api, appId, setParams]);

  if (appId) return <ChatView key={appId} appId={appId} conversationId={conversationId} onConversationChange={setConversation} />;
  if (none)
    return (
      <EmptyState
        className={s.center}
        icon={<Bot aria-hidden="true" />}
        title={t('chat.noApp')}
        description={t('chat.noAppHint')}
        action={
          <Link to={portalPaths.discover} className={buttonClass({ variant: 'primary' })}>
            {t('chat.goDiscover')}
          </Link>
        }
        data-testid="single-agent-none"
      />
    );
  return (
    <div className={s.center} aria-busy="true">
      <Spinner size={20} />
    </div>
  );
}
