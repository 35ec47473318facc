/**
 * /portal/sessions/sessions-page: the user's conversations across apps (GET /web/conversations,
 * pinned first then newest), searchable by name, by app and by group, with the spec's popups:
 * group management, character settings, dialogue assistant, session settings, and delete after a
 * confirmation. A conversation opens in the chat page.
 */
import { FolderCog, Folders, MessageSquarePlus, MessagesSquare, RotateCw } from 'lucide-react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { ConversationGroup, PortalApp, WebConversation, WebConversationUpdateBody } from '../../../../schemas/portal';
import { notify } from '../../../api/reactions';
import { SearchInput } from '../../../kit/widgets/search-input';
import { SelectInput } from '../../../kit/widgets/select-input';
import { Button } from '../../../ui/button';
import { confirm } from '../../../ui/confirm-dialog';
import { EmptyState } from '../../../ui/empty-state';
import { Skeleton } from '../../../ui/skeleton';
import { Page, PageHeader } from '../../shell/page';
import { settleLoadError } from '../load-error';
import { portalPaths } from '../paths';
import { usePortalApi } from '../portal-api';
import { AssistantDialog } from './assistant-dialog';
import { GroupManagerDialog } from './group-manager-dialog';
import { CharacterDialog } from './character-dialog';
import { MoveToGroupDialog, SessionSettingsDialog } from './session-dialogs';
import { SessionListItem, type SessionAction } from './session-list-item';
import s from './sessions.module.css';

const PAGE_SIZE = 50;
const ALL = '__all__';

export default function SessionsPage() {
  const { t } = useTranslation(['portal', 'common']);
  const api = usePortalApi();
  const navigate = useNavigate();
  const [keyword, setKeyword] = useState('');
  const [appId, setAppId] = useState<string>(ALL);
  const [groupId, setGroupId] = useState<string>(ALL);
  const [items, setItems] = useState<WebConversation[] | null>(null);
  const [total, setTotal] = useState(0);
  const [page, setPage] = useState(1);
  const [failed, setFailed] = useState(false);
  const [nonce, setNonce] = useState(0);
  const [groups, setGroups] = useState<ConversationGroup[]>([]);
  const [apps, setApps] = useState<PortalApp[]>([]);
  const [dialog, setDialog] = useState<{ kind: 'settings' | 'character' | 'move'; conversation: WebConversation } | null>(null);
  const [groupsOpen, setGroupsOpen] = useState(false);
  const [assistantOpen, setAssistantOpen] = useState(false);

  const reloadGroups = useCallback(() => api.listGroups().then(setGroups, settleLoadError), [api]);
  useEffect(() => void reloadGroups(), [reloadGroups]);
  useEffect(() => {
    api.listApps({ page: 1, page_size: 1000 }).then((p) => setApps(p.list), settleLoadError);
  }, [api]);

  useEffect(() => {
    const ctrl = new AbortController();
    setFailed(false);
    api
      .listConversations(
        { keyword: keyword || undefined, app_id: appId === ALL ? undefined : appId, group_id: groupId === ALL ? undefined : groupId, page, page_size: PAGE_SIZE },
        { signal: ctrl.signal },
      )
      .then(
        (p) => {
          setItems((cur) => (page === 1 || !cur ? p.list : [...cur, ...p.list]));
          setTotal(p.total);
        },
        (e: unknown) => {
          if (!settleLoadError(e)) setFailed(true);
        },
      );
    return () => ctrl.abort();
  }, [api, keyword, appId, groupId, page, nonce]);

  /** Filters changed or something was saved: the list again from its first page. */
  const reload = useCallback(() => {
    setPage(1);
    setNonce((n) => n + 1);
  }, []);
  const filter = (f: () => void) => {
    f();
    setItems(null);
    setPage(1);
  };

  const save = async (c: WebConversation, body: WebConversationUpdateBody) => {
    await api.updateConversation(c.id, body);
    notify({ level: 'success', text: t('sessions.saved') });
    reload();
    if ('group_id' in body) void reloadGroups();
  };

  const onAction = async (action: SessionAction, c: WebConversation) => {
    if (action === 'pin') return save(c, { pinned: !c.pinned }).catch(() => {});
    if (action === 'delete') {
      const name = c.name || t('chat.untitled');
      if (!(await confirm({ title: t('sessions.deleteTitle', { name }), description: t('sessions.deleteDescription'), danger: true, confirmLabel: t('common:actions.delete') }))) return;
      try {
        await api.deleteConversation(c.id);
        notify({ level: 'success', text: t('sessions.deleted') });
        reload();
        void reloadGroups();
      } catch {
        // The request layer showed why.
      }
      return;
    }
    setDialog({ kind: action, conversation: c });
  };

  const groupName = useMemo(() => new Map(groups.map((g) => [g.id, g.name])), [groups]);
  const appOptions = useMemo(() => [{ value: ALL, label: t('sessions.allApps') }, ...apps.filter((a) => a.mode !== 'workflow').map((a) => ({ value: a.id, label: a.name }))], [apps, t]);
  const filtered = Boolean(keyword) || appId !== ALL || groupId !== ALL;

  let body;
  if (failed)
    body = (
      <EmptyState
        className={s.emptyBox}
        title={t('sessions.loadFailed')}
        action={
          <Button icon={<RotateCw aria-hidden="true" />} onClick={reload}>
            {t('discover.retry')}
          </Button>
        }
      />
    );
  else if (items === null)
    body = (
      <ul className={s.list} aria-busy="true">
        {Array.from({ length: 5 }, (_, i) => (
          <li key={i} className={s.item}>
            <Skeleton width={36} height={36} />
            <div className={s.itemText}>
              <Skeleton width="40%" height={14} />
              <Skeleton width="60%" height={12} />
            </div>
          </li>
        ))}
      </ul>
    );
  else if (items.length === 0)
    body = filtered ? (
      <EmptyState className={s.emptyBox} title={t('sessions.noMatch')} data-testid="sessions-empty" />
    ) : (
      <EmptyState
        className={s.emptyBox}
        icon={<MessagesSquare aria-hidden="true" />}
        title={t('sessions.empty')}
        description={t('sessions.emptyHint')}
        action={
          <Button variant="primary" icon={<MessageSquarePlus aria-hidden="true" />} onClick={() => setAssistantOpen(true)}>
            {t('assistant.title')}
          </Button>
        }
        data-testid="sessions-empty"
      />
    );
  else
    body = (
      <>
        <ul className={s.list} data-testid="sessions-list">
          {items.map((c) => (
            <SessionListItem key={c.id} conversation={c} groupName={c.group_id ? groupName.get(c.group_id) : undefined} onAction={(a, conv) => void onAction(a, conv)} />
          ))}
        </ul>
        {items.length < total && (
          <div className={s.more}>
            <Button onClick={() => setPage((p) => p + 1)}>{t('common:actions.more')}</Button>
          </div>
        )}
      </>
    );

  return (
    <Page data-testid="portal-sessions">
      <PageHeader
        className={s.pageHeader}
        title={t('sessions.title')}
        description={t('sessions.description')}
        actions={
          <>
            <Button icon={<FolderCog aria-hidden="true" />} onClick={() => setGroupsOpen(true)} data-testid="sessions-manage-groups">
              {t('sessions.manageGroups')}
            </Button>
            <Button variant="primary" icon={<MessageSquarePlus aria-hidden="true" />} onClick={() => setAssistantOpen(true)} data-testid="sessions-assistant">
              {t('chat.newConversation')}
            </Button>
          </>
        }
      />
      <div className={s.layout}>
        <nav className={s.groups} aria-label={t('sessions.groups')} data-testid="sessions-groups">
          {[{ id: ALL, name: t('sessions.allGroups'), conversation_count: -1 }, ...groups].map((g) => (
            <button key={g.id} type="button" className={s.groupFilter} aria-pressed={groupId === g.id} onClick={() => filter(() => setGroupId(g.id))}>
              <Folders aria-hidden="true" />
              <span className={s.groupFilterName}>{g.name}</span>
              {g.conversation_count >= 0 && <span className={s.groupFilterCount}>{g.conversation_count}</span>}
            </button>
          ))}
        </nav>
        <div className={s.content}>
          <div className={s.toolbar}>
            <SearchInput className={s.search} value={keyword} onChange={(v) => filter(() => setKeyword(v))} placeholder={t('sessions.search')} />
            <div className={s.appFilter}>
              <SelectInput aria-label={t('sessions.appFilter')} value={appId} options={appOptions} onChange={(v) => filter(() => setAppId(v ?? ALL))} />
            </div>
          </div>
          {body}
        </div>
      </div>
      <SessionSettingsDialog conversation={dialog?.kind === 'settings' ? dialog.conversation : null} onClose={() => setDialog(null)} onSave={save} />
      <CharacterDialog conversation={dialog?.kind === 'character' ? dialog.conversation : null} onClose={() => setDialog(null)} onSave={save} />
      <MoveToGroupDialog conversation={dialog?.kind === 'move' ? dialog.conversation : null} groups={groups} onClose={() => setDialog(null)} onSave={save} />
      <GroupManagerDialog
        open={groupsOpen}
        onOpenChange={setGroupsOpen}
        groups={groups}
        onCreate={async (name) => {
          await api.createGroup(name);
          await reloadGroups();
        }}
        onRename={async (g, name) => {
          await api.renameGroup(g.id, name);
          await reloadGroups();
        }}
        onDelete={async (g) => {
          await api.deleteGroup(g.id);
          if (groupId === g.id) filter(() => setGroupId(ALL));
          await reloadGroups();
          reload();
        }}
      />
      <AssistantDialog open={assistantOpen} onOpenChange={setAssistantOpen} onPick={(app) => navigate(portalPaths.chat(app.id))} />
    </Page>
  );
}
