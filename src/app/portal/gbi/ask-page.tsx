/**
 * /portal/gbi/ask: the user's sessions (listed, renamed, deleted) and a chat per session; each
 * question is answered with its SQL, a chart chosen from the result's shape, the result table and a
 * short written answer (POST /console/gbi/sessions/{id}/ask).
 */
import { MessageSquarePlus, Send, Table2 } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { GbiMessage, GbiSession, GbiSource } from '../../../../schemas/gbi';
import { askGbi, createGbiSession, deleteGbiSession, listGbiMessages, listGbiSessions, listGbiSources, renameGbiSession } from '../../../api/gbi';
import { notify } from '../../../api/reactions';
import { SelectInput } from '../../../kit/widgets/select-input';
import { Button, buttonClass } from '../../../ui/button';
import { confirm } from '../../../ui/confirm-dialog';
import { Dialog, DialogBody, DialogContent, DialogFooter, DialogHeader, DialogTitle } from '../../../ui/dialog';
import { EmptyState } from '../../../ui/empty-state';
import { Input } from '../../../ui/input';
import { Spinner } from '../../../ui/spinner';
import { Textarea } from '../../../ui/textarea';
import { Page, PageHeader } from '../../shell/page';
import { settleLoadError } from '../load-error';
import { GbiMessageView } from './gbi-message';
import { GbiSessionListItem } from './session-list-item';
import { SpacePicker, useGbiSpace } from './use-gbi-space';
import { portalPaths } from '../paths';
import s from './gbi.module.css';

const quiet = () => {};

export default function GbiAskPage() {
  const { t } = useTranslation(['portal', 'common', 'pages']);
  const space = useGbiSpace();
  const ws = space.workspaceId;
  const [sources, setSources] = useState<GbiSource[]>([]);
  const [sourceId, setSourceId] = useState<string | null>(null);
  const [sessions, setSessions] = useState<GbiSession[]>([]);
  const [active, setActive] = useState<string | null>(null);
  const [messages, setMessages] = useState<GbiMessage[]>([]);
  const [question, setQuestion] = useState('');
  const [asking, setAsking] = useState(false);
  const [renaming, setRenaming] = useState<GbiSession | null>(null);
  const [newName, setNewName] = useState('');
  const end = useRef<HTMLDivElement>(null);

  const reloadSessions = useCallback(() => {
    if (!ws) return Promise.resolve();
    return listGbiSessions({ workspaceId: ws, reaction: 'silent' }).then(setSessions, settleLoadError);
  }, [ws]);

  useEffect(() => {
    if (!ws) return;
    setActive(null);
    listGbiSources({ workspaceId: ws, reaction: 'silent' }).then((list) => {
      setSources(list);
      setSourceId((cur) => (cur && list.some((x) => x.id === cur) ? cur : (list[0]?.id ?? null)));
    }, settleLoadError);
    void reloadSessions();
  }, [ws, reloadSessions]);

  useEffect(() => {
    if (!ws || !active) return setMessages([]);
    const ctrl = new AbortController();
    listGbiMessages(active, { workspaceId: ws, signal: ctrl.signal, reaction: 'silent' }).then(setMessages, settleLoadError);
    const current = sessions.find((x) => x.id === active);
    if (current?.source_id) setSourceId(current.source_id);
    return () => ctrl.abort();
    // Only a change of session reloads its messages (asking appends itself).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ws, active]);

  // Braces: Chromium's scrollIntoView now answers a promise, which React would take for a clean-up.
  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'end' });
  }, [messages.length, asking]);

  const send = async () => {
    const q = question.trim();
    if (!ws || !q || !sourceId || asking) return;
    setAsking(true);
    try {
      let id = active;
      if (!id) {
        id = (await createGbiSession({ source_id: sourceId }, { workspaceId: ws })).id;
        setActive(id);
      }
      const m = await askGbi(id, { question: q, source_id: sourceId }, { workspaceId: ws });
      setMessages((cur) => [...cur, m]);
      setQuestion('');
      void reloadSessions();
    } catch {
      // The request layer showed why.
    } finally {
      setAsking(false);
    }
  };

  const remove = async (x: GbiSession) => {
    if (!ws || !(await confirm({ title: t('gbi.deleteSessionTitle', { name: x.name }), description: t('gbi.deleteSessionBody'), danger: true, confirmLabel: t('common:actions.delete') }))) return;
    await deleteGbiSession(x.id, { workspaceId: ws }).then(() => {
      if (active === x.id) setActive(null);
      void reloadSessions();
    }, quiet);
  };

  const rename = async () => {
    if (!ws || !renaming || !newName.trim()) return;
    await renameGbiSession(renaming.id, newName.trim(), { workspaceId: ws }).then(() => {
      setRenaming(null);
      notify({ level: 'success', text: t('common:actions.save') });
      void reloadSessions();
    }, quiet);
  };

  if (space.spaces && !ws) return <EmptyState title={t('gbi.noWorkspace')} />;
  return (
    <Page style={{ height: '100%', display: 'flex', flexDirection: 'column' }}>
      <PageHeader
        title={t('pages:portal.gbiAsk')}
        actions={
          <div className={s.row}>
            <SpacePicker space={space} />
            {sources.length > 0 && (
              <div className={s.picker}>
                <SelectInput aria-label={t('gbi.source')} size="sm" value={sourceId} onChange={(v) => setSourceId(v ?? null)} options={sources.map((x) => ({ value: x.id, label: x.name }))} />
              </div>
            )}
            {sourceId && (
              <Link to={portalPaths.gbiTable(sourceId)} className={buttonClass({ size: 'sm', variant: 'ghost' })} data-testid="gbi-view-tables">
                <Table2 aria-hidden="true" size={14} />
                {t('gbi.viewTables')}
              </Link>
            )}
          </div>
        }
      />
      <div className={s.layout}>
        <aside className={s.sidebar} aria-label={t('gbi.sessions')}>
          <Button size="sm" icon={<MessageSquarePlus aria-hidden="true" />} onClick={() => setActive(null)}>
            {t('gbi.newSession')}
          </Button>
          {sessions.length === 0 && <span className={s.muted}>{t('gbi.noSessions')}</span>}
          {sessions.map((x) => (
            <GbiSessionListItem
              key={x.id}
              session={x}
              active={x.id === active}
              onOpen={() => setActive(x.id)}
              onRename={() => {
                setRenaming(x);
                setNewName(x.name);
              }}
              onDelete={() => void remove(x)}
            />
          ))}
        </aside>
        <section className={s.chat}>
          <div className={s.messages} data-testid="gbi-messages">
            {sources.length === 0 ? (
              <EmptyState title={t('gbi.noSources')} description={t('gbi.noSourcesHint')} />
            ) : messages.length === 0 && !asking ? (
              <EmptyState title={t('gbi.emptyChat')} />
            ) : (
              messages.map((m) => <GbiMessageView key={m.id} message={m} />)
            )}
            {asking && (
              <div className={s.row}>
                <Spinner /> <span className={s.muted}>{t('gbi.asking')}</span>
              </div>
            )}
            <div ref={end} />
          </div>
          <form
            className={s.composer}
            onSubmit={(e) => {
              e.preventDefault();
              void send();
            }}
          >
            <Textarea
              aria-label={t('gbi.ask')}
              rows={2}
              value={question}
              placeholder={t('gbi.askPlaceholder')}
              onChange={(e) => setQuestion(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
                  e.preventDefault();
                  void send();
                }
              }}
            />
            <Button type="submit" variant="primary" icon={<Send aria-hidden="true" />} loading={asking} disabled={!question.trim() || !sourceId}>
              {t('gbi.ask')}
            </Button>
          </form>
        </section>
      </div>
      <Dialog open={renaming !== null} onOpenChange={(o) => !o && setRenaming(null)}>
        <DialogContent size="sm" closeLabel={t('common:actions.close')}>
          <DialogHeader>
            <DialogTitle>{t('gbi.renameTitle')}</DialogTitle>
          </DialogHeader>
          <DialogBody>
            <Input aria-label={t('gbi.renameTitle')} value={newName} maxLength={64} onChange={(e) => setNewName(e.target.value)} />
          </DialogBody>
          <DialogFooter>
            <Button onClick={() => setRenaming(null)}>{t('common:actions.cancel')}</Button>
            <Button variant="primary" disabled={!newName.trim()} onClick={() => void rename()}>
              {t('common:actions.save')}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </Page>
  );
}
