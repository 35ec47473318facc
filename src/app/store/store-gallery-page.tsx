/**
 * /operation/store/{app,knowledge,prompt,tool,plugin}: one store's gallery (spec 2; issue 23). Released items of
 * the tenant as cards in a virtualised grid (react-virtuoso: pages of 24 load as the user scrolls), with
 * search, a kind filter (app modes, tool types), a tag filter and the sort (newest, most copied); empty
 * states for an empty store and for filters that match nothing. The store type comes from the URL.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { VirtuosoGrid } from 'react-virtuoso';
import type { SpaceStoreType, StoreItem, StoreItemType, StoreSort } from '../../../schemas/store';
import { FLOW_MODES } from '../../../schemas/flow';
import { isAbortError } from '../../api/request';
import { SearchInput } from '../../kit/widgets/search-input';
import { Button, EmptyState, Select } from '../../ui';
import { Page, PageHeader } from '../shell/page';
import { reportError } from '../workspace/members/report-error';
import { StoreCard, StoreCardSkeleton } from './store-card';
import { useStoreApi } from './store-api';
import { detailPath, typeOfRoute } from './store-kinds';
import s from './store.module.css';

const PAGE_SIZE = 24;
const KINDS: Partial<Record<StoreItemType, readonly string[]>> = { app: FLOW_MODES, tool: ['custom', 'mcp'] };

interface Query {
  keyword: string;
  tag: string;
  kind: string;
  sort: StoreSort;
}

export default function StoreGalleryPage() {
  const { pathname } = useLocation();
  const type = typeOfRoute(pathname.split('/')[3]) ?? 'app';
  return <StoreGallery key={type} type={type} />;
}

export function StoreGallery({ type }: { type: StoreItemType }) {
  const { t } = useTranslation(['store', 'apps']);
  const api = useStoreApi();
  const typeName = t(`types.${type}`);
  const [query, setQuery] = useState<Query>({ keyword: '', tag: 'all', kind: 'all', sort: 'newest' });
  const [items, setItems] = useState<StoreItem[] | null>(null);
  const [total, setTotal] = useState(0);
  const [tags, setTags] = useState<string[]>([]);
  const [status, setStatus] = useState<'loading' | 'ready' | 'error'>('loading');
  const [nonce, setNonce] = useState(0);
  const loaded = useRef(0);
  const seq = useRef(0);

  const load = useCallback(
    async (page: number) => {
      const mine = seq.current;
      const q = { page, page_size: PAGE_SIZE, sort: query.sort, keyword: query.keyword || undefined, tag: query.tag === 'all' ? undefined : query.tag, kind: query.kind === 'all' ? undefined : query.kind };
      try {
        const answer = await api.list(type, q);
        if (mine !== seq.current) return;
        loaded.current = page;
        setTotal(answer.total);
        setTags(answer.tags);
        setItems((prev) => (page === 1 ? answer.items : [...(prev ?? []), ...answer.items]));
        setStatus('ready');
      } catch (e) {
        if (mine !== seq.current || isAbortError(e)) return;
        setStatus('error');
        reportError(e);
      }
    },
    [api, type, query],
  );

  useEffect(() => {
    seq.current++;
    setStatus('loading');
    void load(1);
  }, [load, nonce]);

  const more = () => {
    if (status === 'ready' && items && items.length < total) void load(loaded.current + 1);
  };
  const filtered = query.keyword !== '' || query.tag !== 'all' || query.kind !== 'all';
  const kinds = KINDS[type];

  let body;
  if (status === 'error') {
    body = <EmptyState className={s.emptyBox} title={t('gallery.loadFailed')} action={<Button size="sm" onClick={() => setNonce((n) => n + 1)}>{t('gallery.retry')}</Button>} data-testid="store-error" />;
  } else if (items === null) {
    body = (
      <div className={s.grid} aria-busy="true" data-testid="store-loading">
        {Array.from({ length: 6 }, (_, i) => (
          <StoreCardSkeleton key={i} />
        ))}
      </div>
    );
  } else if (items.length === 0 && status === 'ready') {
    body = filtered ? (
      <EmptyState
        className={s.emptyBox}
        title={t('gallery.noMatch', { type: typeName })}
        data-testid="store-empty"
        action={<Button size="sm" onClick={() => setQuery((q) => ({ ...q, keyword: '', tag: 'all', kind: 'all' }))}>{t('gallery.clearFilters')}</Button>}
      />
    ) : (
      <EmptyState className={s.emptyBox} title={t('gallery.emptyTitle', { type: typeName })} description={t('gallery.emptyDescription')} data-testid="store-empty" />
    );
  } else {
    body = (
      <VirtuosoGrid
        className={s.galleryBox}
        data={items}
        listClassName={s.grid}
        endReached={more}
        overscan={400}
        computeItemKey={(_i, item) => item.id}
        itemContent={(_i, item) => <StoreCard item={item} to={detailPath(type, item.id)} />}
        data-testid="store-grid"
      />
    );
  }

  return (
    <Page data-testid="store-gallery" data-store-type={type}>
      <PageHeader title={t(`pages:store.${type === 'dataset' ? 'knowledge' : type}` as never)} description={type === 'plugin' ? t('gallery.pluginDescription') : t('gallery.description', { type: typeName })} />
      <div className={s.toolbar}>
        <SearchInput
          size="sm"
          className={s.search}
          value={query.keyword}
          placeholder={t('gallery.search')}
          aria-label={t('gallery.search')}
          onChange={(text) => {
            const keyword = text.trim().slice(0, 64);
            setQuery((q) => (q.keyword === keyword ? q : { ...q, keyword }));
          }}
        />
        {kinds && (
          <Select
            size="sm"
            className={s.filter}
            value={query.kind}
            aria-label={t('system.type')}
            onValueChange={(kind) => setQuery((q) => ({ ...q, kind }))}
            options={[{ value: 'all', label: t('gallery.allKinds') }, ...kinds.map((k) => ({ value: k, label: type === 'app' ? t(`apps:modes.${k}` as never) : t(`toolTypes.${k}` as never) }))]}
          />
        )}
        <Select
          size="sm"
          className={s.filter}
          value={query.tag}
          aria-label={t('detail.tags')}
          onValueChange={(tag) => setQuery((q) => ({ ...q, tag }))}
          options={[{ value: 'all', label: t('gallery.allTags') }, ...tags.map((tag) => ({ value: tag, label: tag }))]}
        />
        <Select
          size="sm"
          className={s.filter}
          value={query.sort}
          aria-label={t('gallery.sortBy')}
          onValueChange={(sort) => setQuery((q) => ({ ...q, sort: sort as StoreSort }))}
          options={(['newest', 'most_copied'] as const).map((v) => ({ value: v, label: t(`gallery.sort.${v}`) }))}
        />
        {status === 'ready' && <span className={s.total}>{t('gallery.total', { count: total })}</span>}
      </div>
      {body}
    </Page>
  );
}
