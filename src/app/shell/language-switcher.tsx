import { useTranslation } from 'react-i18next';
import { currentLanguage, languages, setLanguage, type Language } from '../../i18n';
import { DropdownMenu, DropdownMenuContent, DropdownMenuLabel, DropdownMenuRadioGroup, DropdownMenuRadioItem, DropdownMenuTrigger } from '../../ui/dropdown-menu';
import { LanguageButton } from './top-bar-buttons';

export interface LanguageSwitcherProps {
  value: Language;
  onChange(lng: Language): void;
  /** Open from the start (the menu was asked for before its code had loaded). */
  defaultOpen?: boolean;
}

/**
 * Chinese / English switch of the top bar. Presentational: {@link ConnectedLanguageSwitcher} binds it
 * to i18next (the choice is saved in localStorage and survives reloads).
 */
export function LanguageSwitcher({ value, onChange, defaultOpen }: LanguageSwitcherProps) {
  const { t } = useTranslation(['shell', 'common', 'auth']);
  return (
    <DropdownMenu defaultOpen={defaultOpen}>
      <DropdownMenuTrigger asChild>
        <LanguageButton language={value} />
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuLabel>{t('language.label')}</DropdownMenuLabel>
        <DropdownMenuRadioGroup value={value} onValueChange={(v) => onChange(v as Language)}>
          {languages.map((lng) => (
            <DropdownMenuRadioItem key={lng} value={lng} data-testid={`language-option-${lng}`} lang={lng === 'zh' ? 'zh-CN' : 'en'}>
              {t(`common:language.${lng}`)}
            </DropdownMenuRadioItem>
          ))}
        </DropdownMenuRadioGroup>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

/** The language switcher bound to i18next. */
export function ConnectedLanguageSwitcher({ defaultOpen }: { defaultOpen?: boolean }) {
  // Re-render when the language changes.
  useTranslation();
  return <LanguageSwitcher value={currentLanguage()} onChange={(lng) => void setLanguage(lng)} defaultOpen={defaultOpen} />;
}
