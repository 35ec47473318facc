import { Search, X } from 'lucide-react';
import { useEffect, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../ui/dialog';
import { EmptyState } from '../../ui/empty-state';
import { Input } from '../../ui/input';
import { Spinner } from '../../ui/spinner';
import { apiPickerSource } from './api-source';
import { PickerList } from './picker-list';
import { PickerStore } from './picker-store';
import { SelectedList } from './selected-list';
import type { PickerDataSource, PickerItem, SelectionMode, SelectionType } from './types';
import s from './person-org-picker.module.css';

export interface PersonOrgPickerProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Dialog title; default by `selectType` ('Select people' …). */
  title?: ReactNode;
  /** What can be picked. Default 'user'. */
  selectType?: SelectionType;
  /** Default 'multiple'. */
  mode?: SelectionMode;
  /** Ids selected when the dialog opens (resolved with users/by-userIds, then by-orgIds). */
  value?: string[];
  /**
   * Called on confirm with the selected ids (in the order picked) and their items. A returned promise
   * keeps the dialog open and busy until it settles; a rejection keeps it open (the caller shows why).
   */
  onChange?: (ids: string[], items: PickerItem[]) => void | Promise<unknown>;
  /** Shown checked and not changeable, never in the value (e.g. existing members). */
  disabledIds?: string[];
  /** Where the data comes from. Default: the API ({@link apiPickerSource}). */
  dataSource?: PickerDataSource;
  /** Extra controls at the left of the footer (e.g. a role choice). */
  footer?: ReactNode;
  /** Confirm needs at least one selected item. */
  required?: boolean;
  confirmLabel?: ReactNode;
}

/**
 * The person and organisation picker (spec 1 shared features; spec 3, 4, 9): the caller's
 * organisation tree on the left (lazy, virtual, tri-state checkboxes), a debounced search, and the
 * selection on the right.
 *
 * Test hooks: search box `picker-search` (label 'Search'), user checkbox `picker-user-checkbox-<id>`
 * (label 'Select <name>'), organisation checkbox `picker-org-checkbox-<id>` (`data-tristate`),
 * confirm button `picker-confirm`.
 *
 * @example
 * <PersonOrgPicker open={open} onOpenChange={setOpen} selectType="user" mode="multiple"
 *   disabledIds={memberIds} onChange={(ids) => addMembers(ids)} />
 */
export function PersonOrgPicker({ open, onOpenChange, ...props }: PersonOrgPickerProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent size="lg" className={s.dialog} data-testid="person-org-picker">
        <PickerPanel {...props} onClose={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}

type PanelProps = Omit<PersonOrgPickerProps, 'open' | 'onOpenChange'> & { onClose: () => void };

function PickerPanel({
  title,
  selectType = 'user',
  mode = 'multiple',
  value,
  onChange,
  disabledIds,
  dataSource = apiPickerSource,
  footer,
  required,
  confirmLabel,
  onClose,
}: PanelProps) {
  const { t } = useTranslation('picker');
  const [store] = useState(() => new PickerStore({ source: dataSource, selectType, mode, disabledIds }));
  const snap = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  const [busy, setBusy] = useState(false);
  const listRef = useRef<HTMLDivElement | null>(null);

  useEffect(() => {
    store.start();
    void store.setValue(value ?? []);
    return () => store.stop();
    // The value is read when the dialog opens; later changes come from inside.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [store]);

  const disabledKey = (disabledIds ?? []).join(',');
  const firstDisabled = useRef(disabledKey);
  useEffect(() => {
    if (disabledKey === firstDisabled.current) return;
    firstDisabled.current = disabledKey;
    store.setDisabledIds(disabledKey ? disabledKey.split(',') : []);
  }, [store, disabledKey]);

  const confirm = async () => {
    const result = onChange?.(store.value(), snap.selected);
    if (result && typeof (result as Promise<unknown>).then === 'function') {
      setBusy(true);
      try {
        await result;
      } catch {
        setBusy(false);
        return;
      }
      setBusy(false);
    }
    onClose();
  };

  const searching = snap.search !== null;
  const empty = required && snap.selected.length === 0;

  return (
    <>
      <DialogHeader>
        <DialogTitle>{title ?? t(`title.${selectType}`)}</DialogTitle>
        <DialogDescription className={s.hint}>{t('hint')}</DialogDescription>
      </DialogHeader>
      <div className={s.body}>
        <div className={s.left}>
          <Input
            size="sm"
            className={s.search}
            prefix={<Search aria-hidden="true" />}
            suffix={
              snap.query ? (
                <button type="button" className={s.clearSearch} aria-label={t('search.clear')} onClick={() => store.setQuery('')}>
                  <X aria-hidden="true" />
                </button>
              ) : snap.search?.loading ? (
                <Spinner size={12} label="" />
              ) : undefined
            }
            value={snap.query}
            maxLength={64}
            aria-label={t('search.label')}
            placeholder={t(`search.${selectType}`)}
            data-testid="picker-search"
            onChange={(e) => store.setQuery(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                store.searchNow();
              } else if (e.key === 'ArrowDown') {
                e.preventDefault();
                listRef.current?.focus();
              }
            }}
          />
          <div className={s.listArea}>
            {searching ? (
              snap.searchRows.length > 0 ? (
                <PickerList store={store} snapshot={snap} rows={snap.searchRows} variant="search" aria-label={t('results')} listRef={listRef} />
              ) : snap.search?.loading ? (
                <div className={s.centered}>
                  <Spinner label={t('loading')} />
                </div>
              ) : (
                <EmptyState size="sm" title={t('noResults')} icon={<Search aria-hidden="true" />} />
              )
            ) : snap.rootsLoading ? (
              <div className={s.centered}>
                <Spinner label={t('loading')} />
              </div>
            ) : snap.rootsError ? (
              <EmptyState
                size="sm"
                title={t('loadFailed')}
                action={
                  <Button size="sm" onClick={() => store.retry(null)}>
                    {t('retry')}
                  </Button>
                }
              />
            ) : snap.rows.length === 0 ? (
              <EmptyState size="sm" title={t('emptyTree')} />
            ) : (
              <PickerList store={store} snapshot={snap} rows={snap.rows} variant="tree" aria-label={t('tree')} listRef={listRef} />
            )}
          </div>
        </div>
        <SelectedList items={snap.selected} resolving={snap.resolving} onRemove={(id) => store.remove(id)} onClear={() => store.clear()} />
      </div>
      <DialogFooter className={s.footer}>
        <div className={s.footerExtra}>{footer}</div>
        <Button onClick={onClose} disabled={busy}>
          {t('cancel')}
        </Button>
        <Button variant="primary" loading={busy} disabled={empty || snap.resolving} onClick={() => void confirm()} data-testid="picker-confirm">
          {confirmLabel ?? t('confirm')}
        </Button>
      </DialogFooter>
    </>
  );
}
