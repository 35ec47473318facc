/**
 * /portal/sessions/discover: the apps distributed to this user (GET /web/portal), searchable by name
 * and description, filtered by mode, as cards in rows (virtualised for long lists, the next page
 * loading as the last row comes into view). Opening a card goes to the app's chat or run page.
 */
import { Compass, RotateCw, SearchX } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FlowMode } from '../../../../schemas/flow';
import type { PortalApp } from '../../../../schemas/portal';
import { SearchInput } from '../../../kit/widgets/search-input';
import { Button } from '../../../ui/button';
import { EmptyState } from '../../../ui/empty-state';
import { Spinner } from '../../../ui/spinner';
import { Page, PageHeader } from '../../shell/page';
import { settleLoadError } from '../load-error';
import { usePortalApi } from '../portal-api';
import { AppCardSkeleton } from './app-card';
import { APP_MODES } from '../../workspace/apps/app-modes';
import { AppGrid } from './app-grid';
import s from './discover.module.css';

const PAGE_SIZE = 100;

interface ListState {
  apps: PortalApp[] | null;
  total: number;
  page: number;
  status: 'loading' | 'ready' | 'error' | 'more';
}

/** All, then the four modes, as toggle buttons (a filter the user sees at once). */
function ModeFilter({ value, onChange }: { value: FlowMode | undefined; onChange: (mode: FlowMode | undefined) => void }) {
  const { t } = useTranslation('portal');
  const options: (FlowMode | undefined)[] = [undefined, ...APP_MODES];
  return (
    <div className={s.modes} role="group" aria-label={t('discover.modeFilter')} data-testid="portal-mode-filter">
      {options.map((mode) => (
        <button
          key={mode ?? 'all'}
          type="button"
          className={s.mode}
          aria-pressed={value === mode}
          data-mode={mode ?? 'all'}
          onClick={() => onChange(mode)}
        >
          {t(`modes.${mode ?? 'all'}`)}
        </button>
      ))}
    </div>
  );
}

export default function DiscoverPage() {
  const { t } = useTranslation('portal');
  const api = usePortalApi();
  const [keyword, setKeyword] = useState('');
  const [mode, setMode] = useState<FlowMode | undefined>();
  const [nonce, setNonce] = useState(0);
  const [list, setList] = useState<ListState>({ apps: null, total: 0, page: 1, status: 'loading' });
  const query = useRef({ keyword, mode });
  query.current = { keyword, mode };

  useEffect(() => {
    const ctrl = new AbortController();
    setList((l) => ({ ...l, status: 'loading' }));
    api.listApps({ keyword: keyword || undefined, mode, page: 1, page_size: PAGE_SIZE }, { signal: ctrl.signal }).then(
      (p) => setList({ apps: p.list, total: p.total, page: 1, status: 'ready' }),
      (e: unknown) => {
        if (!settleLoadError(e)) setList((l) => ({ ...l, status: 'error' }));
      },
    );
    return () => ctrl.abort();
  }, [api, keyword, mode, nonce]);

  const current = useRef(list);
  current.current = list;
  const loadMore = useCallback(() => {
    const l = current.current;
    if (l.status !== 'ready' || !l.apps || l.apps.length >= l.total) return;
    const next = l.page + 1;
    const q = query.current;
    current.current = { ...l, status: 'more' };
    setList(current.current);
    api.listApps({ keyword: q.keyword || undefined, mode: q.mode, page: next, page_size: PAGE_SIZE }).then(
      (p) => setList((cur) => (cur.apps ? { apps: [...cur.apps, ...p.list], total: p.total, page: next, status: 'ready' } : cur)),
      (e: unknown) => {
        settleLoadError(e);
        setList((cur) => ({ ...cur, status: 'ready' }));
      },
    );
  }, [api]);

  const filtered = Boolean(keyword || mode);
  let body;
  if (list.status === 'error') {
    body = (
      <EmptyState
        className={s.emptyBox}
        title={t('discover.loadFailed')}
        action={
          <Button icon={<RotateCw aria-hidden="true" />} onClick={() => setNonce((n) => n + 1)}>
            {t('discover.retry')}
          </Button>
        }
      />
    );
  } else if (list.apps === null) {
    body = (
      <div className={s.skeletonGrid} aria-busy="true" data-testid="portal-app-grid-loading">
        {Array.from({ length: 6 }, (_, i) => (
          <AppCardSkeleton key={i} />
        ))}
      </div>
    );
  } else if (list.apps.length === 0) {
    body = filtered ? (
      <EmptyState className={s.emptyBox} icon={<SearchX aria-hidden="true" />} title={t('discover.noMatch')} description={t('discover.noMatchHint')} data-testid="portal-discover-empty" />
    ) : (
      <EmptyState className={s.emptyBox} icon={<Compass aria-hidden="true" />} title={t('discover.empty')} description={t('discover.emptyHint')} data-testid="portal-discover-empty" />
    );
  } else {
    body = (
      <AppGrid
        apps={list.apps}
        onEndReached={loadMore}
        footer={
          list.status === 'more' ? (
            <p className={s.more}>
              <Spinner size={14} /> {t('discover.loadingMore')}
            </p>
          ) : null
        }
      />
    );
  }

  return (
    <Page data-testid="portal-discover">
      <PageHeader title={t('discover.title')} description={t('discover.description')} />
      <div className={s.toolbar}>
        <SearchInput className={s.search} value={keyword} onChange={setKeyword} placeholder={t('discover.search')} />
        <ModeFilter value={mode} onChange={setMode} />
        {list.apps !== null && list.status !== 'error' && (
          <span className={s.count} aria-live="polite">
            {t('discover.count', { count: list.total })}
          </span>
        )}
      </div>
      <div aria-busy={list.status === 'loading' || undefined} className={s.body}>
        {body}
      </div>
    </Page>
  );
}
