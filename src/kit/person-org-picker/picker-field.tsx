import { Building2, Users, X } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Avatar } from '../../ui/avatar';
import { Button } from '../../ui/button';
import { cn } from '../../ui/cn';
import { apiPickerSource } from './api-source';
import { PersonOrgPicker, type PersonOrgPickerProps } from './person-org-picker';
import { cleanUser } from './tree-state';
import { itemName, PICKER_DEFAULTS, type PickerDataSource, type PickerItem, type SelectionType } from './types';
import s from './person-org-picker.module.css';

export interface PersonOrgPickerFieldProps extends Omit<PersonOrgPickerProps, 'open' | 'onOpenChange' | 'value' | 'onChange'> {
  value: string[];
  onChange: (ids: string[], items: PickerItem[]) => void;
  /** Chips shown before '+N'. Default 5 (spec 9). */
  maxShown?: number;
  placeholder?: string;
  disabled?: boolean;
  id?: string;
  'aria-label'?: string;
  className?: string;
}

/** Items for ids, resolved once through the data source (users first, then organisations). */
function useItems(ids: string[], source: PickerDataSource, selectType: SelectionType, known: PickerItem[]) {
  const [items, setItems] = useState<Map<string, PickerItem>>(() => new Map(known.map((i) => [i.id, i])));
  const key = ids.join(',');
  useEffect(() => {
    const missing = ids.filter((id) => !items.has(id));
    if (missing.length === 0) return;
    let live = true;
    void (async () => {
      const found: PickerItem[] = [];
      try {
        if (selectType !== 'org') for (const u of await source.usersByIds(missing)) found.push({ kind: 'user', id: u.id, user: cleanUser(u) });
        const rest = missing.filter((id) => !found.some((f) => f.id === id));
        if (selectType !== 'user' && rest.length) for (const o of await source.orgsByIds(rest)) found.push({ kind: 'org', id: o.id, org: o });
      } catch {
        return; // the request layer has reported it; chips show what is known
      }
      if (live) setItems((prev) => new Map([...prev, ...found.map((f) => [f.id, f] as const)]));
    })();
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, source, selectType]);
  return { items, remember: (list: PickerItem[]) => setItems((prev) => new Map([...prev, ...list.map((i) => [i.id, i] as const)])) };
}

/**
 * A compact form field for the picker: the first five selected items as chips, '+N' for the rest,
 * and a button that opens {@link PersonOrgPicker}.
 *
 * @example <PersonOrgPickerField value={ids} onChange={setIds} selectType="user" aria-label="Reviewers" />
 */
export function PersonOrgPickerField({
  value,
  onChange,
  maxShown = PICKER_DEFAULTS.chipsShown,
  placeholder,
  disabled,
  id,
  className,
  dataSource = apiPickerSource,
  selectType = 'user',
  'aria-label': ariaLabel,
  ...picker
}: PersonOrgPickerFieldProps) {
  const { t } = useTranslation('picker');
  const [open, setOpen] = useState(false);
  const { items, remember } = useItems(value, dataSource, selectType, []);
  const shown = value.slice(0, maxShown);
  const rest = value.length - shown.length;

  const remove = (removed: string) => {
    const ids = value.filter((x) => x !== removed);
    onChange(ids, ids.flatMap((x) => (items.has(x) ? [items.get(x)!] : [])));
  };

  return (
    <div className={cn(s.field, className)} data-disabled={disabled || undefined} data-testid="picker-field">
      <ul className={s.chips} aria-label={ariaLabel}>
        {value.length === 0 && <li className={s.placeholder}>{placeholder ?? t('trigger.placeholder')}</li>}
        {shown.map((x) => {
          const item = items.get(x);
          const name = item ? itemName(item) : '…';
          return (
            <li key={x} className={s.chip}>
              {item?.kind === 'org' ? (
                <Building2 className={s.orgIcon} aria-hidden="true" />
              ) : (
                <Avatar name={name} src={item?.kind === 'user' ? item.user.avatar || null : null} size="xs" colorSeed={x} />
              )}
              <span className={s.chipName}>{name}</span>
              {!disabled && (
                <button type="button" className={s.chipRemove} aria-label={t('selected.remove', { name })} onClick={() => remove(x)}>
                  <X aria-hidden="true" />
                </button>
              )}
            </li>
          );
        })}
        {rest > 0 && (
          <li className={cn(s.chip, s.moreChip)} title={t('trigger.more', { count: rest })}>
            +{rest}
          </li>
        )}
      </ul>
      <Button id={id} size="sm" icon={<Users aria-hidden="true" />} disabled={disabled} onClick={() => setOpen(true)} aria-label={ariaLabel ? `${t('trigger.choose')} ${ariaLabel}` : undefined}>
        {t('trigger.choose')}
      </Button>
      <PersonOrgPicker
        {...picker}
        open={open}
        onOpenChange={setOpen}
        value={value}
        dataSource={dataSource}
        selectType={selectType}
        onChange={(ids, list) => {
          remember(list);
          onChange(ids, list);
        }}
      />
    </div>
  );
}
