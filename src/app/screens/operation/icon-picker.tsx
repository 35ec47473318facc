import { useTranslation } from 'react-i18next';
import { Popover, PopoverContent, PopoverTrigger, cn } from '../../../ui';
import {
  WORKSPACE_COLORS,
  WORKSPACE_ICONS,
  WorkspaceIcon,
  formatWorkspaceIcon,
  type ParsedIcon,
  type WorkspaceColor,
  type WorkspaceIconName,
} from '../../shell/workspace-icon';
import s from './operation.module.css';

export interface IconPickerProps {
  value: ParsedIcon;
  onChange(value: ParsedIcon): void;
  /** For the preview's accessible name. */
  name: string;
}

/** Picks one of the 9 default icons and one of the 7 background colours (spec 9). */
export function IconPicker({ value, onChange, name }: IconPickerProps) {
  const { t } = useTranslation(['workspace', 'common', 'errors']);
  return (
    <Popover>
      <PopoverTrigger asChild>
        <button type="button" className={s.iconTrigger} aria-label={t('dialog.icon')} data-testid="workspace-icon-picker">
          <WorkspaceIcon icon={formatWorkspaceIcon(value)} name={name} size="lg" />
        </button>
      </PopoverTrigger>
      <PopoverContent className={s.iconPopover}>
        <div className={s.pickerLabel}>{t('dialog.icon')}</div>
        <div className={s.iconGrid} role="radiogroup" aria-label={t('dialog.icon')}>
          {(Object.keys(WORKSPACE_ICONS) as WorkspaceIconName[]).map((icon) => {
            const Icon = WORKSPACE_ICONS[icon];
            return (
              <button
                key={icon}
                type="button"
                role="radio"
                aria-checked={value.icon === icon}
                aria-label={t(`icons.${icon}`)}
                className={cn(s.iconOption, value.icon === icon && s.selected)}
                onClick={() => onChange({ ...value, icon })}
              >
                <Icon aria-hidden="true" />
              </button>
            );
          })}
        </div>
        <div className={s.pickerLabel}>{t('dialog.color')}</div>
        <div className={s.colorRow} role="radiogroup" aria-label={t('dialog.color')}>
          {(Object.keys(WORKSPACE_COLORS) as WorkspaceColor[]).map((color) => (
            <button
              key={color}
              type="button"
              role="radio"
              aria-checked={value.color === color}
              aria-label={t(`colors.${color}`)}
              className={cn(s.colorOption, value.color === color && s.selected)}
              style={{ background: WORKSPACE_COLORS[color] }}
              onClick={() => onChange({ ...value, color })}
            />
          ))}
        </div>
      </PopoverContent>
    </Popover>
  );
}
