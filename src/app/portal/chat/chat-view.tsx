/**
 * The chat with a distributed app (the sessions chat, the single-agent chat and the embedded chat
 * share it): the user's conversations of the app on the side (a drawer at phone width and when
 * embedded), the conversation with its opening statement, suggested questions, start inputs asked
 * once, streamed answers, and the message box. An app the user lost access to stays readable:
 * its past conversations open read-only, the box disabled with the reason.
 */
import { Menu, MessageSquarePlus } from 'lucide-react';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PortalAppDetail, WebConversation } from '../../../../schemas/portal';
import { defaultAppFeatures } from '../../../../schemas/flow';
import { AppIcon } from '../../../kit/widgets/app-icon';
import { Button } from '../../../ui/button';
import { EmptyState } from '../../../ui/empty-state';
import { Spinner } from '../../../ui/spinner';
import { lazyWithReload } from '../../guards';
import { isAccessLost, settleLoadError } from '../load-error';
import { PortalModeBadge } from '../mode-badge';
import { usePortalApi } from '../portal-api';
import { useVoicePrefs } from '../voice-prefs';
import { Composer } from './composer';
import { ConversationList } from './conversation-list';
import { LostAccess } from './lost-access';
import { MessageList } from './message-list';
import { useChat } from './use-chat';
import { Welcome } from './welcome';
import s from './chat.module.css';

const StartInputs = lazy(lazyWithReload(() => import('./start-inputs')));
// Voice (issue 31) loads only for apps that have it on: the portal's first load leaves it out.
const VoiceBar = lazy(lazyWithReload(() => import('./portal-voice')));

export interface ChatViewProps {
  appId: string;
  /** The conversation shown (null: a new one). */
  conversationId: string | null;
  /** Open another conversation (null: a new one); `replace` when the chat itself made it. */
  onConversationChange: (id: string | null, replace?: boolean) => void;
  /** Inside an iframe: no portal chrome, the list always a drawer. */
  embedded?: boolean;
}

type AppState = { status: 'loading' } | { status: 'ready'; app: PortalAppDetail } | { status: 'lost' } | { status: 'error' };

const FEATURES_OFF = defaultAppFeatures();

export function ChatView({ appId, conversationId, onConversationChange, embedded = false }: ChatViewProps) {
  const { t } = useTranslation('portal');
  const api = usePortalApi();
  const [appState, setAppState] = useState<AppState>({ status: 'loading' });
  const [conversations, setConversations] = useState<WebConversation[] | null>(null);
  const [listNonce, setListNonce] = useState(0);
  const [drawer, setDrawer] = useState(false);
  const side = useRef<HTMLElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  // The open drawer takes the focus and closes on Escape, giving the focus back to its button.
  useEffect(() => {
    if (!drawer) return;
    side.current?.querySelector<HTMLElement>('button')?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setDrawer(false);
      toggle.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [drawer]);
  const [started, setStarted] = useState<{ conversation: string | null; inputs: Record<string, unknown> } | null>(null);
  // The user's character settings (sessions page): answers read out or not, and their speed.
  const [voicePrefs] = useVoicePrefs(appId);

  useEffect(() => {
    const ctrl = new AbortController();
    setAppState({ status: 'loading' });
    api.getApp(appId, { signal: ctrl.signal }).then(
      (app) => setAppState({ status: 'ready', app }),
      (e: unknown) => {
        if (isAccessLost(e)) setAppState({ status: 'lost' });
        else if (!settleLoadError(e)) setAppState({ status: 'error' });
      },
    );
    return () => ctrl.abort();
  }, [api, appId]);

  useEffect(() => {
    const ctrl = new AbortController();
    api.listConversations({ app_id: appId, page: 1, page_size: 100 }, { signal: ctrl.signal }).then(
      (p) => setConversations(p.list),
      (e: unknown) => {
        if (!settleLoadError(e)) setConversations([]);
      },
    );
    return () => ctrl.abort();
  }, [api, appId, listNonce]);

  const app = appState.status === 'ready' ? appState.app : null;
  const lost = appState.status === 'lost';
  const current = conversations?.find((c) => c.id === conversationId);
  const readOnly = lost || current?.accessible === false;
  // A lost app opens on its latest conversation (there is no new one to start).
  useEffect(() => {
    if (lost && !conversationId && conversations && conversations.length > 0) onConversationChange(conversations[0].id, true);
  }, [lost, conversationId, conversations, onConversationChange]);

  const features = app?.features ?? FEATURES_OFF;
  const inputs = started && started.conversation === conversationId ? started.inputs : undefined;
  const refreshList = useCallback(() => setListNonce((n) => n + 1), []);
  const chat = useChat({
    api,
    appId,
    conversationId,
    features: app?.features ?? null,
    inputs,
    onConversation: (id) => {
      setStarted((st) => (st && st.conversation === null ? { ...st, conversation: id } : st));
      onConversationChange(id, true);
      refreshList();
    },
    onAnswered: refreshList,
    onAccessLost: () => setAppState({ status: 'lost' }),
  });
  const appView = useMemo(
    () => ({
      name: app?.name ?? current?.app_name ?? conversations?.[0]?.app_name ?? '',
      icon: app?.icon ?? current?.app_icon ?? conversations?.[0]?.app_icon ?? {},
      portraitUrl: app?.character?.portrait_url ?? undefined,
    }),
    [app, current, conversations],
  );
  const mode = app?.mode ?? current?.app_mode ?? conversations?.[0]?.app_mode;

  if (appState.status === 'loading' && conversations === null)
    return (
      <div className={s.center} aria-busy="true">
        <Spinner size={20} />
      </div>
    );
  if (appState.status === 'error') return <EmptyState className={s.center} title={t('chat.loadFailed')} />;
  if (lost && conversations !== null && conversations.length === 0) return <LostAccess />;

  const empty = chat.chat.messages.length === 0;
  const needInputs = !!app && app.inputs.length > 0 && !conversationId && !inputs && empty;
  // Read-only, waiting for the start inputs, or the app still loading: the box says why it is off.
  const disabledReason = readOnly ? t('access.lostInput') : needInputs ? t('chat.inputs.title') : !app ? t('chat.placeholder') : undefined;
  const openNew = readOnly
    ? undefined
    : () => {
        setStarted(null);
        onConversationChange(null);
        setDrawer(false);
      };
  const welcome = app && (
    <Welcome features={features} conversationKey={conversationId ?? 'new'} showSuggestions={empty && !needInputs} disabled={chat.busy} onAsk={(q) => chat.send(q)} />
  );

  return (
    <div className={s.chat} data-embedded={embedded || undefined} data-testid="portal-chat" data-read-only={readOnly || undefined}>
      <aside ref={side} className={s.side} data-open={drawer || undefined} aria-label={t('chat.conversations')}>
        <ConversationList
          conversations={conversations}
          activeId={conversationId}
          onSelect={(id) => {
            onConversationChange(id);
            setDrawer(false);
          }}
          onNew={openNew}
        />
      </aside>
      {drawer && <button type="button" className={s.backdrop} aria-label={t('chat.closeList')} onClick={() => setDrawer(false)} />}
      <section className={s.main}>
        <header className={s.head}>
          <Button ref={toggle} variant="ghost" iconOnly className={s.drawerToggle} aria-label={t('chat.openList')} aria-expanded={drawer} onClick={() => setDrawer(true)} data-testid="chat-open-list">
            <Menu aria-hidden="true" />
          </Button>
          <AppIcon value={appView.icon} size={28} />
          <div className={s.headText}>
            <span className={s.headName}>{appView.name}</span>
            {current && <span className={s.headConversation}>{current.name || t('chat.untitled')}</span>}
          </div>
          {mode && <PortalModeBadge mode={mode} />}
          {openNew && (
            <Button variant="ghost" iconOnly className={s.headNew} aria-label={t('chat.newConversation')} title={t('chat.newConversation')} onClick={openNew}>
              <MessageSquarePlus aria-hidden="true" />
            </Button>
          )}
        </header>
        {lost && <LostAccess compact />}
        <div className={s.body}>
          {chat.status === 'loading' ? (
            <div className={s.center} aria-busy="true">
              <Spinner size={20} />
            </div>
          ) : chat.status === 'error' ? (
            <EmptyState
              className={s.center}
              title={t('chat.loadFailed')}
              action={
                <Button size="sm" onClick={chat.retry}>
                  {t('discover.retry')}
                </Button>
              }
            />
          ) : empty ? (
            <div className={s.emptyScroll}>
              {welcome}
              {needInputs && app && (
                <Suspense fallback={<Spinner size={16} />}>
                  <StartInputs fields={app.inputs} upload={api.upload} onStart={(values) => setStarted({ conversation: null, inputs: values })} />
                </Suspense>
              )}
            </div>
          ) : (
            <MessageList
              chat={chat.chat}
              features={features}
              app={appView}
              busy={chat.busy}
              readOnly={readOnly}
              loadingOlder={chat.loadingOlder}
              header={welcome}
              onLoadOlder={chat.loadOlder}
              onRegenerate={chat.regenerate}
              onFeedback={chat.feedback}
              onAsk={(q) => chat.send(q)}
            />
          )}
        </div>
        {app && (features.speech_to_text || features.text_to_speech) && !readOnly && (
          <div className={s.voice}>
            <Suspense fallback={null}>
              <VoiceBar
                appId={appId}
                name={app.character?.name || appView.name}
                icon={<AppIcon value={appView.icon} size={32} />}
                imageUrl={app.character?.portrait_url ?? undefined}
                clipUrl={app.character?.idle_clip_url ?? undefined}
                listen={features.speech_to_text}
                speak={features.text_to_speech && voicePrefs.speak}
                speed={voicePrefs.speed ?? undefined}
                messages={chat.chat.messages}
                busy={chat.busy}
                disabled={disabledReason !== undefined}
                onSend={(q) => chat.send(q)}
                onStop={chat.stop}
              />
            </Suspense>
          </div>
        )}
        <Composer
          upload={features.file_upload}
          uploader={api.upload}
          busy={chat.busy}
          stopping={chat.stopping}
          disabledReason={disabledReason}
          onSend={chat.send}
          onStop={chat.stop}
        />
      </section>
    </div>
  );
}
