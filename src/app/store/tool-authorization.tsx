/**
 * After a tool is copied from the store (issue 23): the store never carries credentials, so a copy
 * whose source used authentication starts without one. This offers the target space's credentials and
 * gives the copy the chosen one (POST /store/tools/authorization), or says the space has none yet.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { StoreToolAuth } from '../../../schemas/store';
import { describeError } from '../../api/reactions';
import { Button, Select, Spinner } from '../../ui';
import { useStoreApi } from './store-api';
import s from './store.module.css';

export interface ToolAuthorizationProps {
  workspaceId: string;
  toolId: string;
  auth: StoreToolAuth;
}

export function ToolAuthorization({ workspaceId, toolId, auth }: ToolAuthorizationProps) {
  const { t } = useTranslation('store');
  const api = useStoreApi();
  const [credentials, setCredentials] = useState<{ id: string; name: string }[] | null>(null);
  const [chosen, setChosen] = useState('');
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    api.credentials(workspaceId).then(
      (list) => {
        if (!live) return;
        setCredentials(list);
        setChosen(list[0]?.id ?? '');
      },
      () => live && setCredentials([]),
    );
    return () => {
      live = false;
    };
  }, [api, workspaceId]);

  const authorize = async () => {
    setBusy(true);
    setError(null);
    try {
      await api.authorize(workspaceId, toolId, chosen);
      setDone(credentials?.find((c) => c.id === chosen)?.name ?? chosen);
    } catch (e) {
      setError(describeError(e)?.text ?? String(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className={s.stack} data-testid="store-tool-authorization">
      {!done && <p className={s.note}>{t('copy.needsAuth', { type: t(`detail.authTypes.${auth.type}`) })}</p>}
      {done ? (
        <p data-testid="store-tool-authorized">{t('copy.authorized', { name: done })}</p>
      ) : credentials === null ? (
        <Spinner />
      ) : credentials.length === 0 ? (
        <p className={s.note}>{t('copy.noCredentials')}</p>
      ) : (
        <div className={s.inline}>
          <Select size="sm" className={s.filter} value={chosen} onValueChange={setChosen} aria-label={t('copy.credential')} options={credentials.map((c) => ({ value: c.id, label: c.name }))} />
          <Button size="sm" loading={busy} disabled={!chosen} onClick={() => void authorize()} data-testid="store-tool-authorize">
            {t('copy.authorize')}
          </Button>
        </div>
      )}
      {error && (
        <p role="alert" className={s.note}>
          {error}
        </p>
      )}
    </div>
  );
}
