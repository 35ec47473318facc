import { Braces, ChevronDown, X } from 'lucide-react';
import { useMemo, useState, type KeyboardEvent } from 'react';
import { isSelector, type ValueType } from '../../plugin-sdk';
import { ariaOf, isInvalid, type WidgetValueProps } from '../../kit/widgets/types';
import { cn } from '../../ui/cn';
import { Input } from '../../ui/input';
import { Popover, PopoverContent, PopoverTrigger } from '../../ui/popover';
import { useNodeWidgetEnv } from './context';
import { useVariableLabels } from './labels';
import { filterVariables, findVariable, type VariableGroup, type VariableOption } from './variables';
import s from './widgets.module.css';

export interface VariableListProps {
  groups: readonly VariableGroup[];
  onPick(option: VariableOption): void;
  /** Only these value types. */
  types?: readonly ValueType[];
  /** A search typed elsewhere (the template editor's query); otherwise the list has its own box. */
  search?: string;
  /** The highlighted row (keyboard), by flat index. */
  active?: number;
  autoFocus?: boolean;
}

/** The flat list of options a filtered list shows (for keyboard navigation). */
export const flatOptions = (groups: readonly VariableGroup[]) => groups.flatMap((g) => g.options);

/**
 * The grouped, typed, searchable list of variables (the picker's popover and the template
 * editor's completion).
 */
export function VariableList({ groups, onPick, types, search, active, autoFocus }: VariableListProps) {
  const { t, groupTitle, optionLabel, typeLabel } = useVariableLabels();
  const [own, setOwn] = useState('');
  const [ownActive, setOwnActive] = useState(0);
  const query = search ?? own;
  const shown = useMemo(
    () => filterVariables(groups, { types, search: query, label: optionLabel }),
    [groups, types, query, optionLabel],
  );
  const flat = flatOptions(shown);
  // With its own search box the list also takes the arrow keys and Enter.
  const current = active ?? (search === undefined ? Math.min(ownActive, flat.length - 1) : undefined);
  const onSearchKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (!flat.length) return;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setOwnActive((a) => (Math.min(a, flat.length - 1) + step + flat.length) % flat.length);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      onPick(flat[Math.max(0, current ?? 0)]);
    }
  };
  let index = -1;
  return (
    <div className={s.varList} data-slot="variable-list">
      {search === undefined && (
        <Input
          size="sm"
          value={own}
          autoFocus={autoFocus}
          onChange={(e) => {
            setOwn(e.target.value);
            setOwnActive(0);
          }}
          onKeyDown={onSearchKey}
          placeholder={t('variable.search')}
          aria-label={t('variable.search')}
        />
      )}
      {shown.length === 0 ? (
        <p className={s.muted}>{t('variable.empty')}</p>
      ) : (
        <div role="listbox" aria-label={t('variable.listLabel')} className={s.varGroups}>
          {shown.map((g) => (
            <div key={g.id} role="group" aria-label={groupTitle(g)} className={s.varGroup}>
              <div className={s.varGroupTitle}>{groupTitle(g)}</div>
              {g.options.map((o) => {
                index++;
                const label = optionLabel(o);
                return (
                  <button
                    key={o.selector.join('.')}
                    type="button"
                    role="option"
                    aria-selected={index === current}
                    data-active={index === current || undefined}
                    className={s.varOption}
                    style={{ paddingLeft: 8 + o.depth * 12 }}
                    // Keeps the focus in a template editor while picking with the mouse.
                    onMouseDown={(e) => e.preventDefault()}
                    onClick={() => onPick(o)}
                  >
                    <Braces aria-hidden="true" className={s.varIcon} />
                    <span className={s.varName}>{o.depth ? o.selector[o.selector.length - 1] : o.name}</span>
                    {label && <span className={s.muted}>{label}</span>}
                    <span className={s.varType}>{typeLabel(o.type)}</span>
                  </button>
                );
              })}
            </div>
          ))}
        </div>
      )}
    </div>
  );
}

export interface VariablePickerProps extends WidgetValueProps<string[]> {
  /** Only variables of these types are offered. */
  types?: readonly ValueType[];
  /** The variables offered (default: everything this node may use). */
  groups?: readonly VariableGroup[];
  placeholder?: string;
}

/**
 * A selector field: shows the chosen variable (or what is broken about it) and opens the grouped
 * list of what this node may use.
 * @example <VariablePicker value={config.query} onChange={(sel) => set('query', sel)} types={['string']} />
 */
export function VariablePicker({ value, onChange, onBlur, types, groups, placeholder, disabled, readOnly, className, ...rest }: VariablePickerProps) {
  const env = useNodeWidgetEnv();
  const { t, groupTitle, optionLabel, typeLabel } = useVariableLabels();
  const [open, setOpen] = useState(false);
  const chosen = isSelector(value) ? value : undefined;
  const found = chosen ? findVariable(env.variables, chosen) : undefined;
  const locked = disabled || readOnly || env.readOnly;
  const pick = (o: VariableOption) => {
    onChange(o.selector);
    setOpen(false);
    onBlur?.();
  };
  const onKey = (e: KeyboardEvent) => {
    if ((e.key === 'Backspace' || e.key === 'Delete') && chosen && !locked) onChange([]);
  };
  return (
    <div className={cn(s.picker, className)} data-slot="variable-picker">
      <Popover open={open && !locked} onOpenChange={(o) => (o ? setOpen(true) : (setOpen(false), onBlur?.()))}>
        <PopoverTrigger asChild>
          <button
            type="button"
            {...ariaOf(rest)}
            className={cn(s.pickerTrigger, isInvalid(rest) && s.invalid)}
            disabled={locked}
            aria-haspopup="listbox"
            onKeyDown={onKey}
          >
            {chosen ? (
              found ? (
                <span className={s.chip} data-broken={undefined}>
                  <span className={s.chipNode}>{groupTitle(found.group)}</span>
                  <span className={s.varName}>{found.option.name}</span>
                  {optionLabel(found.option) && <span className={s.muted}>{optionLabel(found.option)}</span>}
                  <span className={s.varType}>{typeLabel(found.option.type)}</span>
                </span>
              ) : (
                <span className={s.chip} data-broken="true" title={t('variable.missing', { reference: chosen.join('.') })}>
                  {chosen.join('.')}
                </span>
              )
            ) : (
              <span className={s.placeholder}>{placeholder ?? t('variable.placeholder')}</span>
            )}
            <ChevronDown aria-hidden="true" className={s.chevron} />
          </button>
        </PopoverTrigger>
        <PopoverContent className={s.popover} aria-label={t('variable.listLabel')}>
          <VariableList groups={groups ?? env.variables} types={types} onPick={pick} autoFocus />
        </PopoverContent>
      </Popover>
      {chosen && !locked && (
        <button type="button" className={s.iconButton} aria-label={t('variable.clear')} onClick={() => onChange([])}>
          <X aria-hidden="true" />
        </button>
      )}
    </div>
  );
}
