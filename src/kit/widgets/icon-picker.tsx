import { Check, ImageUp, Pencil } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { cn } from '../../ui/cn';
import { Popover, PopoverContent, PopoverTrigger } from '../../ui/popover';
import { Spinner } from '../../ui/spinner';
import { translateMessage } from '../i18n';
import type { MessageDescriptor } from '../schema-form/messages';
import { DEFAULT_ICON, ICON_COLORS, ICON_NAMES, type IconName, type IconValue } from './icon-presets';
import { AppIcon, ICONS } from './app-icon';
import { ariaOf, type ControlAria } from './types';
import { ICON_UPLOAD, selectFiles } from './upload-rules';
import s from './icon-picker.module.css';

export { AppIcon, type AppIconProps } from './app-icon';

export interface IconPickerProps extends ControlAria {
  value: IconValue | null | undefined;
  onChange: (value: IconValue) => void;
  /** Stores an uploaded image; without it only the presets show. */
  upload?: (file: File) => Promise<{ iconPath: string; iconId?: string }>;
  /** Preview size. Default 48. */
  size?: number;
  disabled?: boolean;
  readOnly?: boolean;
  onBlur?: () => void;
  className?: string;
}

/**
 * Icon and avatar picker (spec 1 and 9): 7 background colours, 9 default icons, or one uploaded
 * image (5 MB, png/jpg/jpeg/bmp/gif/svg/webp). The value is `{iconPath?, iconId?, icon?, iconColor?}`.
 * @example <IconPicker value={icon} onChange={setIcon} upload={uploadIcon} />
 */
export function IconPicker({ value, onChange, upload, size = 48, disabled, readOnly, onBlur, className, ...rest }: IconPickerProps) {
  const { t, i18n } = useTranslation('kit');
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<MessageDescriptor | null>(null);
  const file = useRef<HTMLInputElement>(null);
  const v = value ?? DEFAULT_ICON;
  const preset = { icon: v.icon ?? DEFAULT_ICON.icon, iconColor: v.iconColor ?? DEFAULT_ICON.iconColor };
  const locked = disabled || readOnly;
  const uid = useId();

  const pick = (patch: Partial<IconValue>) => onChange({ ...preset, ...patch, iconPath: undefined, iconId: undefined });

  const onFile = async (files: FileList | null) => {
    if (!files?.length || !upload) return;
    const { accepted, rejected } = selectFiles(Array.from(files), 0, { ...ICON_UPLOAD, accept: [...ICON_UPLOAD.accept] });
    if (rejected.length) return setProblem(rejected[0].message);
    setProblem(null);
    setBusy(true);
    try {
      const stored = await upload(accepted[0]);
      onChange({ ...preset, iconPath: stored.iconPath, iconId: stored.iconId });
    } catch {
      setProblem({ key: 'kit:upload.failed' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Popover
      open={open && !locked}
      onOpenChange={(o) => {
        setOpen(o);
        if (!o) onBlur?.();
      }}
    >
      <PopoverTrigger asChild>
        <button type="button" {...ariaOf(rest)} data-slot="icon-picker" className={cn(s.trigger, className)} disabled={disabled} aria-label={rest['aria-label'] ?? t('icon.choose')} aria-haspopup="dialog">
          <AppIcon value={v} size={size} />
          {!locked && (
            <span className={s.edit} aria-hidden="true">
              <Pencil />
            </span>
          )}
        </button>
      </PopoverTrigger>
      <PopoverContent className={s.panel} aria-label={t('icon.choose')}>
        <div className={s.preview}>
          <AppIcon value={v} size={56} />
        </div>
        <p className={s.heading} id={`${uid}-colors`}>
          {t('icon.background')}
        </p>
        <div className={s.colors} role="radiogroup" aria-labelledby={`${uid}-colors`}>
          {ICON_COLORS.map((c) => {
            const on = !v.iconPath && preset.iconColor?.toLowerCase() === c.background.toLowerCase();
            return (
              <button
                key={c.id}
                type="button"
                role="radio"
                aria-checked={on}
                aria-label={t(`icon.colors.${c.id}`)}
                className={s.swatch}
                style={{ background: c.background, color: c.color }}
                onClick={() => pick({ iconColor: c.background })}
              >
                {on && <Check aria-hidden="true" />}
              </button>
            );
          })}
        </div>
        <p className={s.heading} id={`${uid}-icons`}>
          {t('icon.icons')}
        </p>
        <div className={s.icons} role="radiogroup" aria-labelledby={`${uid}-icons`}>
          {ICON_NAMES.map((name) => {
            const Icon = ICONS[name];
            const on = !v.iconPath && preset.icon === name;
            return (
              <button
                key={name}
                type="button"
                role="radio"
                aria-checked={on}
                aria-label={t(`icon.names.${name}`)}
                className={s.iconOption}
                data-on={on || undefined}
                onClick={() => pick({ icon: name })}
              >
                <Icon aria-hidden="true" />
              </button>
            );
          })}
        </div>
        {upload && (
          <div className={s.upload}>
            <button type="button" className={s.uploadButton} disabled={busy} onClick={() => file.current?.click()}>
              {busy ? <Spinner size={14} label="" /> : <ImageUp aria-hidden="true" />}
              {t('icon.upload')}
            </button>
            {v.iconPath && (
              <button type="button" className={s.link} onClick={() => pick({})}>
                {t('icon.useIcon')}
              </button>
            )}
            <span className={s.hint}>{t('icon.uploadHint')}</span>
            {problem && (
              <span className={s.problem} role="alert">
                {translateMessage(i18n, problem)}
              </span>
            )}
            <input
              ref={file}
              type="file"
              hidden
              accept={ICON_UPLOAD.accept.join(',')}
              onChange={(e) => {
                void onFile(e.target.files);
                e.target.value = '';
              }}
            />
          </div>
        )}
      </PopoverContent>
    </Popover>
  );
}
