/**
 * "Publish to store" on a resource's own page (knowledge base, prompt, tool; issue 23): the resource's
 * store state and, when rejected or taken offline, the reason, then a dialog to submit (again) with tags
 * and a store description. Only the space's owner and admins may publish (the server decides; others
 * see the button disabled with the reason). Apps publish through their distribution tab instead.
 */
import { Store } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SpaceStoreType, StoreItem } from '../../../schemas/store';
import { getSubmission, publishToStore } from '../../api/store';
import { getWorkspace } from '../../api/workspaces';
import { TagInput } from '../../kit/widgets/tag-input';
import { Badge, Button, Dialog, DialogBody, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, Field, Textarea, toast, Tooltip } from '../../ui';
import { reportError } from '../workspace/members/report-error';
import { REVIEW_TONE } from './store-kinds';
import s from './store.module.css';

export interface PublishToStoreProps {
  workspaceId: string;
  type: Exclude<SpaceStoreType, 'app'>;
  sourceId: string;
  name: string;
  description?: string;
  tags?: string[];
}

export function PublishToStore({ workspaceId, type, sourceId, name, description = '', tags = [] }: PublishToStoreProps) {
  const { t } = useTranslation(['store', 'common']);
  const { t: tApproval } = useTranslation('approval');
  const [item, setItem] = useState<StoreItem | null>(null);
  const [allowed, setAllowed] = useState<boolean | null>(null);
  const [open, setOpen] = useState(false);
  const [form, setForm] = useState({ tags, description });
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    // Quiet: the page works without its store state (e.g. an older server).
    getSubmission(workspaceId, type, sourceId, { reaction: 'silent' }).then(
      (x) => live && setItem(x),
      () => {},
    );
    getWorkspace(workspaceId, { reaction: 'silent' }).then(
      (w) => live && setAllowed(w.role_type === 'owner' || w.role_type === 'admin'),
      () => {},
    );
    return () => {
      live = false;
    };
  }, [workspaceId, type, sourceId]);

  const submit = async () => {
    setBusy(true);
    try {
      setItem(await publishToStore(workspaceId, type, { id: sourceId, tags: form.tags, description: form.description }));
      toast.success(t('publish.done'));
      setOpen(false);
    } catch (e) {
      reportError(e);
    } finally {
      setBusy(false);
    }
  };

  const button = (
    <Button
      icon={<Store aria-hidden="true" />}
      disabled={allowed === false}
      onClick={() => {
        setForm({ tags: item?.tags ?? tags, description: item?.description ?? description });
        setOpen(true);
      }}
      data-testid="publish-to-store"
    >
      {item ? t('publish.again') : t('publish.action')}
    </Button>
  );
  const help = t(type === 'dataset' ? 'publish.helpDataset' : type === 'tool' ? 'publish.helpTool' : 'publish.helpPrompt');
  return (
    <span className={s.inline} data-testid="store-state" data-state={item?.review_state ?? 'none'}>
      {item && (
        <Badge variant={REVIEW_TONE[item.review_state]} title={item.review_reason ?? undefined}>
          {t('publish.state', { state: t(`review.${item.review_state}`) })}
        </Badge>
      )}
      {item?.approval && (
        <span className={s.note} data-testid="store-approval" data-state={item.approval.state}>
          {tApproval(`submitterState.${item.approval.state}`, { comment: item.approval.last_comment })}
        </span>
      )}
      {item?.review_reason && (
        <span className={s.note} data-testid="store-reason">
          {t('publish.reason', { reason: item.review_reason })}
        </span>
      )}
      {allowed === false ? <Tooltip content={t('publish.managersOnly')}><span>{button}</span></Tooltip> : button}
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent data-testid="publish-to-store-dialog">
          <DialogHeader>
            <DialogTitle>{t('publish.title', { name })}</DialogTitle>
            <DialogDescription>
              {t('publish.help')} {help}
            </DialogDescription>
          </DialogHeader>
          <DialogBody>
            <div className={s.stack}>
              <Field label={t('publish.tags')}>
                <TagInput value={form.tags} onChange={(v) => setForm((f) => ({ ...f, tags: v ?? [] }))} />
              </Field>
              <Field label={t('publish.description')}>
                <Textarea value={form.description} maxLength={500} onChange={(e) => setForm((f) => ({ ...f, description: e.target.value }))} data-testid="publish-to-store-description" />
              </Field>
            </div>
          </DialogBody>
          <DialogFooter>
            <Button onClick={() => setOpen(false)}>{t('common:actions.cancel')}</Button>
            <Button variant="primary" loading={busy} onClick={() => void submit()} data-testid="publish-to-store-submit">
              {t('publish.submit')}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </span>
  );
}
