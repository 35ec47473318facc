import { Building2, X } from 'lucide-react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Avatar } from '../../ui/avatar';
import { cn } from '../../ui/cn';
import { Spinner } from '../../ui/spinner';
import { itemName, type PickerItem } from './types';
import s from './person-org-picker.module.css';
import { seededName, seededPath } from '../../i18n/seeded';

export interface SelectedListProps {
  items: PickerItem[];
  resolving?: boolean;
  onRemove: (id: string) => void;
  onClear: () => void;
}

/** The right-hand panel of the picker: everything selected, each removable. */
export function SelectedList({ items, resolving, onRemove, onClear }: SelectedListProps) {
  const { t } = useTranslation('picker');
  const titleId = useId();
  return (
    <section className={s.selectedPanel} aria-labelledby={titleId}>
      <header className={s.selectedHeader}>
        <span id={titleId} className={s.selectedTitle}>
          {t('selected.title', { count: items.length })}
        </span>
        {items.length > 0 && (
          <button type="button" className={s.linkButton} onClick={onClear} data-testid="picker-clear">
            {t('selected.clear')}
          </button>
        )}
      </header>
      {resolving && items.length === 0 ? (
        <p className={cn(s.selectedEmpty, s.muted)}>
          <Spinner size={12} label="" /> {t('selected.resolving')}
        </p>
      ) : items.length === 0 ? (
        <p className={s.selectedEmpty}>{t('selected.empty')}</p>
      ) : (
        <ul className={s.selectedItems} aria-label={t('selected.list')} data-testid="picker-selected">
          {items.map((item) => {
            const name = seededName(itemName(item));
            return (
              <li key={item.id} className={s.selectedItem} data-kind={item.kind}>
                {item.kind === 'user' ? (
                  <Avatar name={name} src={item.user.avatar || null} size="xs" colorSeed={item.id} />
                ) : (
                  <Building2 className={s.orgIcon} aria-hidden="true" />
                )}
                <span className={s.selectedText}>
                  <span className={s.name}>{name}</span>
                  <span className={s.meta}>{seededPath(item.kind === 'user' ? item.user.masterOrgTreeName : item.org.treeNames)}</span>
                </span>
                <button type="button" className={s.removeButton} aria-label={t('selected.remove', { name })} onClick={() => onRemove(item.id)}>
                  <X aria-hidden="true" />
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
