/**
 * The videos of a broadcast app: a new broadcast (title and script, at most 1000 words counted as
 * the server counts them), the list with each render's state and progress (polled while any is
 * queued or rendering), and for a rendered one: play (with its subtitles), download, render again,
 * edit and delete. The MP4 and subtitles are fetched with the session's token and played from
 * object URLs (a <video src> cannot send the token).
 */
import { Clapperboard, Download, Pencil, Play, Plus, RefreshCw, Trash2 } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BROADCAST_WORDS_MAX, BroadcastCreateBody, countWords, type Broadcast } from '../../../../../schemas/digital-human';
import { broadcastSubtitles, broadcastVideo, createBroadcast, deleteBroadcast, listBroadcasts, regenerateBroadcast, updateBroadcast } from '../../../../api/digital-humans';
import { SchemaForm } from '../../../../kit/schema-form';
import type { WidgetRenderer } from '../../../../kit/schema-form';
import { Badge, Button, Card, Dialog, DialogBody, DialogContent, DialogHeader, DialogTitle, EmptyState, Textarea } from '../../../../ui';
import { confirm } from '../../../../ui/confirm-store';
import { toast } from '../../../../ui/toast';
import { reportError } from '../../../workspace/members/report-error';
import s from './digital-human.module.css';

const POLL_MS = 1500;

/** The script field with its word counter (zh: characters, en: words). */
function ScriptField({ value, onChange, onBlur, disabled, placeholder, invalid }: { value: unknown; onChange: (v: unknown) => void; onBlur: () => void; disabled: boolean; placeholder?: string; invalid: boolean }) {
  const { t } = useTranslation('digitalHuman');
  const text = typeof value === 'string' ? value : '';
  const words = countWords(text);
  return (
    <div className={s.script}>
      <Textarea value={text} rows={8} placeholder={placeholder} disabled={disabled} invalid={invalid} onBlur={onBlur} onChange={(e) => onChange(e.target.value)} data-testid="broadcast-script" />
      <span className={words > BROADCAST_WORDS_MAX ? s.over : s.count} data-testid="broadcast-words">
        {t('broadcast.words', { count: words, max: BROADCAST_WORDS_MAX })}
      </span>
    </div>
  );
}

const scriptWidget: WidgetRenderer = ({ value, onChange, onBlur, disabled, placeholder, invalid }) => (
  <ScriptField value={value} onChange={onChange} onBlur={onBlur} disabled={disabled} placeholder={placeholder} invalid={invalid} />
);

function StateBadge({ b }: { b: Broadcast }) {
  const { t } = useTranslation('digitalHuman');
  const variant = b.state === 'done' ? 'success' : b.state === 'failed' ? 'danger' : b.state === 'running' ? 'primary' : 'neutral';
  return (
    <Badge variant={variant} dot data-testid="broadcast-state" data-state={b.state} title={b.error ?? undefined}>
      {b.state === 'running' ? t('broadcast.running', { progress: b.progress }) : t(`broadcast.${b.state}`)}
    </Badge>
  );
}

function Player({ appId, workspaceId, b, onClose }: { appId: string; workspaceId: string; b: Broadcast; onClose: () => void }) {
  const { t } = useTranslation(['digitalHuman', 'common']);
  const [urls, setUrls] = useState<{ video: string; vtt: string } | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let made: { video: string; vtt: string } | null = null;
    let live = true;
    Promise.all([broadcastVideo(appId, b.id, { workspaceId }), broadcastSubtitles(appId, b.id, { workspaceId })]).then(
      ([video, vtt]) => {
        made = { video: URL.createObjectURL(video), vtt: URL.createObjectURL(vtt) };
        if (live) setUrls(made);
      },
      () => live && setFailed(true),
    );
    return () => {
      live = false;
      if (made) {
        URL.revokeObjectURL(made.video);
        URL.revokeObjectURL(made.vtt);
      }
    };
  }, [appId, workspaceId, b.id, b.updated_at]);
  return (
    <Dialog open onOpenChange={(o) => !o && onClose()}>
      <DialogContent size="md" closeLabel={t('common:actions.close')} data-testid="broadcast-player">
        <DialogHeader>
          <DialogTitle>{b.title}</DialogTitle>
        </DialogHeader>
        <DialogBody>
          {failed ? (
            <p role="alert">{t('broadcast.loadFailed')}</p>
          ) : (
            urls && (
              <video className={s.video} controls autoPlay playsInline src={urls.video} data-testid="broadcast-video">
                <track kind="subtitles" src={urls.vtt} srcLang={/[\u3400-\u9fff]/.test(b.script) ? 'zh' : 'en'} label={t('broadcast.script')} default />
              </video>
            )
          )}
        </DialogBody>
      </DialogContent>
    </Dialog>
  );
}

export interface BroadcastPanelProps {
  appId: string;
  workspaceId: string;
  /** The app's character has a portrait or clip (else new broadcasts are refused: DH-1002). */
  ready: boolean;
}

export function BroadcastPanel({ appId, workspaceId, ready }: BroadcastPanelProps) {
  const { t } = useTranslation(['digitalHuman', 'common']);
  const [rows, setRows] = useState<Broadcast[] | null>(null);
  const [editing, setEditing] = useState<Broadcast | 'new' | null>(null);
  const [playing, setPlaying] = useState<Broadcast | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  const load = useCallback(() => {
    listBroadcasts(appId, { page_size: 100 }, { workspaceId, reaction: 'silent' }).then((p) => setRows(p.items), reportError);
  }, [appId, workspaceId]);
  useEffect(load, [load]);
  // Poll while a render is queued or running: progress, then done or failed.
  useEffect(() => {
    if (!rows?.some((r) => r.state === 'queued' || r.state === 'running')) return;
    timer.current = setTimeout(load, POLL_MS);
    return () => clearTimeout(timer.current);
  }, [rows, load]);

  const act = async (run: () => Promise<unknown>, done?: string) => {
    try {
      await run();
      if (done) toast.success(done);
      load();
    } catch (e) {
      reportError(e);
    }
  };
  const download = async (b: Broadcast) => {
    try {
      const blob = await broadcastVideo(appId, b.id, { workspaceId });
      const url = URL.createObjectURL(blob);
      const a = Object.assign(document.createElement('a'), { href: url, download: `${b.title}.mp4` });
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (e) {
      reportError(e);
    }
  };
  const remove = async (b: Broadcast) => {
    if (await confirm({ title: t('broadcast.confirmDelete', { name: b.title }), danger: true })) await act(() => deleteBroadcast(appId, b.id, { workspaceId }), t('broadcast.deleted'));
  };

  const target = editing !== null && editing !== 'new' ? editing : null;
  return (
    <section className={s.broadcasts} data-testid="broadcast-panel">
      <div className={s.sectionHead}>
        <h2>{t('broadcast.list')}</h2>
        <Button variant="primary" icon={<Plus aria-hidden="true" />} disabled={!ready} title={ready ? undefined : t('broadcast.needCharacter')} onClick={() => setEditing('new')} data-testid="broadcast-add">
          {t('broadcast.add')}
        </Button>
      </div>
      {rows && rows.length === 0 ? (
        <EmptyState icon={<Clapperboard aria-hidden="true" />} title={t('broadcast.empty')} description={ready ? t('broadcast.emptyHint') : t('broadcast.needCharacter')} />
      ) : (
        <ul className={s.list} data-testid="broadcast-list">
          {(rows ?? []).map((b) => (
            <li key={b.id}>
              <Card className={s.row} data-testid={`broadcast-row-${b.id}`}>
                <div className={s.rowMain}>
                  <p className={s.rowTitle}>{b.title}</p>
                  <p className={s.rowMeta}>
                    <StateBadge b={b} />
                    <span>{t('broadcast.words', { count: b.words, max: BROADCAST_WORDS_MAX })}</span>
                    {b.duration !== null && <span>{t('broadcast.duration', { seconds: b.duration.toFixed(1) })}</span>}
                    {b.state === 'failed' && b.error && <span className={s.failure}>{b.error}</span>}
                  </p>
                  {(b.state === 'running' || b.state === 'queued') && (
                    <div className={s.progress} role="progressbar" aria-valuenow={b.progress} aria-valuemin={0} aria-valuemax={100}>
                      <span style={{ width: `${b.progress}%` }} />
                    </div>
                  )}
                </div>
                <div className={s.rowActions}>
                  {b.duration !== null && (
                    <>
                      <Button size="sm" icon={<Play aria-hidden="true" />} onClick={() => setPlaying(b)} data-testid="broadcast-play">
                        {t('broadcast.play')}
                      </Button>
                      <Button size="sm" variant="ghost" icon={<Download aria-hidden="true" />} onClick={() => void download(b)}>
                        {t('broadcast.download')}
                      </Button>
                    </>
                  )}
                  <Button size="sm" variant="ghost" icon={<RefreshCw aria-hidden="true" />} disabled={!ready || b.state === 'queued' || b.state === 'running'} onClick={() => void act(() => regenerateBroadcast(appId, b.id, { workspaceId }))}>
                    {t('broadcast.regenerate')}
                  </Button>
                  <Button size="sm" variant="ghost" iconOnly aria-label={t('broadcast.edit')} title={t('broadcast.edit')} onClick={() => setEditing(b)}>
                    <Pencil aria-hidden="true" />
                  </Button>
                  <Button size="sm" variant="ghost" iconOnly aria-label={t('broadcast.delete')} title={t('broadcast.delete')} onClick={() => void remove(b)}>
                    <Trash2 aria-hidden="true" />
                  </Button>
                </div>
              </Card>
            </li>
          ))}
        </ul>
      )}
      <Dialog open={editing !== null} onOpenChange={(o) => !o && setEditing(null)}>
        <DialogContent size="md" closeLabel={t('common:actions.close')} data-testid="broadcast-dialog">
          <DialogHeader>
            <DialogTitle>{target ? t('broadcast.edit') : t('broadcast.add')}</DialogTitle>
          </DialogHeader>
          <DialogBody>
            <SchemaForm
              key={target?.id ?? 'new'}
              schema={BroadcastCreateBody}
              ns="digitalHuman"
              widgets={{ textarea: scriptWidget }}
              defaultValues={target ? { title: target.title, script: target.script } : undefined}
              submitLabel={target ? t('broadcast.saveRender') : t('broadcast.create')}
              onCancel={() => setEditing(null)}
              onSubmit={async (v) => {
                if (target) await updateBroadcast(appId, target.id, v, { workspaceId, reaction: 'silent' });
                else await createBroadcast(appId, v, { workspaceId, reaction: 'silent' });
                setEditing(null);
                load();
              }}
            />
          </DialogBody>
        </DialogContent>
      </Dialog>
      {playing && <Player appId={appId} workspaceId={workspaceId} b={playing} onClose={() => setPlaying(null)} />}
    </section>
  );
}
