/**
 * The picker's virtual list (react-virtuoso, fixed 36 px rows): the organisation tree or the search
 * results. One focusable element (role tree) with aria-activedescendant; the keyboard moves an active
 * row: ↑/↓/Home/End move, → opens (or steps in), ← closes (or steps to the parent), Space checks,
 * Enter opens an organisation or checks a person.
 */
import { Building2, ChevronRight } from 'lucide-react';
import { useId, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Virtuoso, type VirtuosoHandle } from 'react-virtuoso';
import { Avatar } from '../../ui/avatar';
import { Checkbox } from '../../ui/checkbox';
import { cn } from '../../ui/cn';
import { Spinner } from '../../ui/spinner';
import type { PickerSnapshot, PickerStore } from './picker-store';
import type { Row } from './tree-state';
import { PICKER_DEFAULTS, type TriState } from './types';
import s from './person-org-picker.module.css';
import { seededName, seededPath } from '../../i18n/seeded';

export interface PickerListProps {
  store: PickerStore;
  snapshot: PickerSnapshot;
  rows: Row[];
  /** 'tree' opens organisations in place; 'search' lists flat results. */
  variant: 'tree' | 'search';
  'aria-label': string;
  /** Lets the search box move focus into the list. */
  listRef?: React.Ref<HTMLDivElement>;
}

const indent = (depth: number) => 8 + depth * 18;

const checkedOf = (state: TriState | undefined): boolean | 'indeterminate' =>
  state === 'all' ? true : state === 'half' ? 'indeterminate' : false;

/** Rows the keyboard can land on. */
const focusable = (row: Row) => row.kind !== 'header' && row.kind !== 'loading';

export function PickerList({ store, snapshot, rows, variant, listRef, ...aria }: PickerListProps) {
  const { t } = useTranslation('picker');
  const baseId = useId();
  const virtuoso = useRef<VirtuosoHandle>(null);
  const box = useRef<HTMLDivElement | null>(null);
  const [activeKey, setActiveKey] = useState<string | null>(null);
  const [focused, setFocused] = useState(false);

  let activeIndex = activeKey === null ? -1 : rows.findIndex((r) => r.key === activeKey);
  if (activeIndex < 0 && focused) activeIndex = rows.findIndex(focusable);
  const rowId = (i: number) => `${baseId}-row-${i}`;

  const moveTo = (index: number) => {
    const row = rows[index];
    if (!row) return;
    setActiveKey(row.key);
    virtuoso.current?.scrollIntoView({ index, behavior: 'auto' });
  };

  const step = (from: number, dir: 1 | -1) => {
    for (let i = from + dir; i >= 0 && i < rows.length; i += dir) if (focusable(rows[i])) return moveTo(i);
  };

  const activate = (row: Row, key: 'enter' | 'space' | 'click') => {
    switch (row.kind) {
      case 'org':
        if (key === 'space' || variant === 'search') void store.toggleOrg(row.id);
        else if (row.expandable) store.toggleExpand(row.id);
        break;
      case 'user':
        store.toggleUser(row.id);
        break;
      case 'more':
        if (row.orgId === null) store.searchMore();
        else store.loadMore(row.orgId);
        break;
      case 'error':
        store.retry(variant === 'search' ? 'search' : row.orgId);
        break;
    }
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const i = activeIndex;
    const row = rows[i];
    switch (e.key) {
      case 'ArrowDown':
        step(i, 1);
        break;
      case 'ArrowUp':
        step(i < 0 ? rows.length : i, -1);
        break;
      case 'Home':
        step(-1, 1);
        break;
      case 'End':
        step(rows.length, -1);
        break;
      case 'ArrowRight':
        if (row?.kind === 'org' && variant === 'tree') {
          if (row.expandable && !row.expanded) store.expand(row.id);
          else if (row.expanded) step(i, 1);
        }
        break;
      case 'ArrowLeft': {
        if (!row || variant !== 'tree') break;
        if (row.kind === 'org' && row.expanded) store.collapse(row.id);
        else {
          const parent = row.kind === 'org' ? row.parent : 'orgId' in row ? row.orgId : null;
          const at = parent ? rows.findIndex((r) => r.kind === 'org' && r.id === parent) : -1;
          if (at >= 0) moveTo(at);
        }
        break;
      }
      case 'Enter':
        if (row) activate(row, 'enter');
        break;
      case ' ':
        if (row) activate(row, 'space');
        break;
      default:
        return;
    }
    e.preventDefault();
  };

  // Keep the focus on the list: rows and their checkboxes are not tab stops.
  const grabFocus = (e: MouseEvent, row: Row) => {
    if ((e.target as HTMLElement).closest('button:not([role="checkbox"])')) return;
    e.preventDefault();
    box.current?.focus({ preventScroll: true });
    setActiveKey(row.key);
  };

  const renderRow = (index: number, row: Row) => {
    const active = index === activeIndex;
    const common = {
      id: rowId(index),
      'data-active': active || undefined,
      'data-kind': row.kind,
      className: s.row,
      style: { paddingLeft: 'depth' in row ? indent(row.depth) : 8 },
      onMouseDown: (e: MouseEvent) => grabFocus(e, row),
    };
    switch (row.kind) {
      case 'header':
        return (
          <div {...common} role="none" className={cn(s.row, s.groupHeader)}>
            {t(row.group === 'orgs' ? 'groups.orgs' : 'groups.users', { count: row.count })}
          </div>
        );
      case 'org': {
        const org = snapshot.orgs.get(row.id);
        const name = seededName(org?.name ?? '');
        const busy = snapshot.busy.has(row.id);
        const state = snapshot.orgStates.get(row.id);
        return (
          <div
            {...common}
            role="treeitem"
            aria-level={row.depth + 1}
            aria-expanded={variant === 'tree' && row.expandable ? row.expanded : undefined}
            aria-label={name}
            data-testid={`picker-org-${row.id}`}
            onClick={() => activate(row, 'click')}
          >
            {variant === 'tree' && (
              <span
                className={cn(s.chevron, !row.expandable && s.hidden)}
                data-open={row.expanded || undefined}
                aria-hidden="true"
                onClick={(e) => {
                  e.stopPropagation();
                  if (row.expandable) store.toggleExpand(row.id);
                }}
              >
                {row.loading && !row.expanded ? <Spinner size={12} label="" /> : <ChevronRight />}
              </span>
            )}
            {store.orgsCheckable && (
              <Checkbox
                tabIndex={-1}
                checked={checkedOf(state)}
                disabled={busy || snapshot.orgDisabled.has(row.id)}
                aria-label={t(snapshot.selectType === 'user' ? 'selectOrgUsers' : 'selectOrg', { name })}
                aria-busy={busy || undefined}
                data-testid={`picker-org-checkbox-${row.id}`}
                data-tristate={state ?? 'none'}
                onClick={(e) => e.stopPropagation()}
                onCheckedChange={() => void store.toggleOrg(row.id)}
              />
            )}
            {busy ? <Spinner size={16} label={t('loading')} /> : <Building2 className={s.orgIcon} aria-hidden="true" />}
            <span className={s.name}>{name}</span>
            <span className={s.meta}>
              {variant === 'search' ? seededPath(org?.treeNames ?? '') : snapshot.selectType !== 'org' ? t('peopleCount', { count: org?.hasEmpNum ?? 0 }) : null}
            </span>
          </div>
        );
      }
      case 'user': {
        const user = snapshot.users.get(row.id);
        const name = user?.name ?? '';
        const disabled = store.isDisabled(row.id);
        return (
          <div
            {...common}
            role="treeitem"
            aria-level={row.depth + 1}
            aria-label={name}
            aria-disabled={disabled || undefined}
            data-testid={`picker-user-${row.id}`}
            onClick={() => activate(row, 'click')}
          >
            {variant === 'tree' && <span className={s.chevron} aria-hidden="true" />}
            <Checkbox
              tabIndex={-1}
              checked={store.isChecked(row.id)}
              disabled={disabled}
              aria-label={t('selectUser', { name })}
              data-testid={`picker-user-checkbox-${row.id}`}
              onClick={(e) => e.stopPropagation()}
              onCheckedChange={() => store.toggleUser(row.id)}
            />
            <Avatar name={name} src={user?.avatar || null} size="xs" colorSeed={row.id} />
            <span className={s.name}>{name}</span>
            <span className={s.meta}>{variant === 'search' ? seededPath(user?.masterOrgTreeName ?? '') : user?.username}</span>
            {disabled && <span className={s.tag}>{t('already')}</span>}
          </div>
        );
      }
      case 'more':
        return (
          <div {...common} role="treeitem" aria-level={row.depth + 1}>
            <button type="button" tabIndex={-1} className={s.linkButton} disabled={row.loading} onClick={() => activate(row, 'click')}>
              {row.loading && <Spinner size={12} label="" />}
              {t('loadMore', { count: row.remaining })}
            </button>
          </div>
        );
      case 'loading':
        return (
          <div {...common} role="none" className={cn(s.row, s.muted)}>
            <Spinner size={12} label="" />
            {t('loading')}
          </div>
        );
      case 'error':
        return (
          <div {...common} role="treeitem" aria-level={row.depth + 1} className={cn(s.row, s.errorRow)}>
            {t('loadFailed')}
            <button type="button" tabIndex={-1} className={s.linkButton} onClick={() => activate(row, 'click')}>
              {t('retry')}
            </button>
          </div>
        );
    }
  };

  const setBox = (el: HTMLDivElement | null) => {
    box.current = el;
    if (typeof listRef === 'function') listRef(el);
    else if (listRef) (listRef as React.RefObject<HTMLDivElement | null>).current = el;
  };

  return (
    <div
      ref={setBox}
      role="tree"
      aria-label={aria['aria-label']}
      aria-activedescendant={activeIndex >= 0 && focused ? rowId(activeIndex) : undefined}
      tabIndex={0}
      className={s.list}
      data-focused={focused || undefined}
      data-testid={variant === 'tree' ? 'picker-tree' : 'picker-results'}
      onKeyDown={onKeyDown}
      onFocus={() => setFocused(true)}
      onBlur={() => setFocused(false)}
    >
      <Virtuoso
        ref={virtuoso}
        data={rows}
        fixedItemHeight={PICKER_DEFAULTS.rowHeight}
        computeItemKey={(_i, row) => row.key}
        itemContent={renderRow}
        className={s.virtuoso}
        tabIndex={-1}
      />
    </div>
  );
}
