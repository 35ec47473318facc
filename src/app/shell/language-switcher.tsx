import { Languages } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { currentLanguage, languages, setLanguage, type Language } from '../../i18n';
import { Button } from '../../ui/button';
import { DropdownMenu, DropdownMenuContent, DropdownMenuLabel, DropdownMenuRadioGroup, DropdownMenuRadioItem, DropdownMenuTrigger } from '../../ui/dropdown-menu';

export interface LanguageSwitcherProps {
  value: Language;
  onChange(lng: Language): void;
}

/**
 * Chinese / English switch of the top bar. Presentational: {@link ConnectedLanguageSwitcher} binds it
 * to i18next (the choice is saved in localStorage and survives reloads).
 */
export function LanguageSwitcher({ value, onChange }: LanguageSwitcherProps) {
  const { t } = useTranslation(['shell', 'common', 'auth']);
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="sm" icon={<Languages aria-hidden="true" />} aria-label={`${t('language.label')}: ${t(`common:language.${value}`)}`} data-testid="language-switcher">
          {t(`common:language.${value}`)}
        </Button>
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
export function ConnectedLanguageSwitcher() {
  // Re-render when the language changes.
  useTranslation();
  return <LanguageSwitcher value={currentLanguage()} onChange={(lng) => void setLanguage(lng)} />;
}
