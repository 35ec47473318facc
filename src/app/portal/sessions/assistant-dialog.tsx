/**
 * The dialogue assistant (spec 2 popup): start a new conversation with one of the chat apps the user
 * may use. Choosing one opens its chat on a new conversation.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PortalApp } from '../../../../schemas/portal';
import { AppIcon } from '../../../kit/widgets/app-icon';
import { SearchInput } from '../../../kit/widgets/search-input';
import { Dialog, DialogBody, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../../../ui/dialog';
import { Spinner } from '../../../ui/spinner';
import { settleLoadError } from '../load-error';
import { PortalModeBadge } from '../mode-badge';
import { isChatMode } from '../paths';
import { usePortalApi } from '../portal-api';
import s from './sessions.module.css';

export interface AssistantDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onPick: (app: PortalApp) => void;
}

export function AssistantDialog({ open, onOpenChange, onPick }: AssistantDialogProps) {
  const { t } = useTranslation(['portal', 'common']);
  const api = usePortalApi();
  const [keyword, setKeyword] = useState('');
  const [apps, setApps] = useState<PortalApp[] | null>(null);
  useEffect(() => {
    if (!open) return;
    const ctrl = new AbortController();
    setApps(null);
    api.listApps({ keyword: keyword || undefined, page: 1, page_size: 100 }, { signal: ctrl.signal }).then(
      (p) => setApps(p.list.filter((a) => isChatMode(a.mode))),
      (e: unknown) => {
        if (!settleLoadError(e)) setApps([]);
      },
    );
    return () => ctrl.abort();
  }, [api, open, keyword]);
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent size="md" data-testid="assistant-dialog" closeLabel={t('common:actions.close')}>
        <DialogHeader>
          <DialogTitle>{t('assistant.title')}</DialogTitle>
          <DialogDescription>{t('assistant.description')}</DialogDescription>
        </DialogHeader>
        <DialogBody className={s.dialogBody}>
          <SearchInput value={keyword} onChange={setKeyword} placeholder={t('assistant.search')} />
          {apps === null ? (
            <div className={s.centerSmall}>
              <Spinner size={16} />
            </div>
          ) : apps.length === 0 ? (
            <p className={s.hint}>{t('assistant.empty')}</p>
          ) : (
            <ul className={s.pickList}>
              {apps.map((app) => (
                <li key={app.id}>
                  <button type="button" className={s.pick} onClick={() => onPick(app)} data-testid="assistant-app">
                    <AppIcon value={app.icon} size={32} />
                    <span className={s.pickText}>
                      <span className={s.pickName}>{app.name}</span>
                      <span className={s.pickDescription}>{app.description}</span>
                    </span>
                    <PortalModeBadge mode={app.mode} />
                  </button>
                </li>
              ))}
            </ul>
          )}
        </DialogBody>
      </DialogContent>
    </Dialog>
  );
}
