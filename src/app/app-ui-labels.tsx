/**
 * The ui kit's own words (a dialog's close button, a spinner's status, confirm's buttons, the toasts'
 * region, the breadcrumb) in the current language, for every primitive a caller gave none (ui-labels.ts).
 */
import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { UiLabelsContext, type UiLabels } from '../ui/ui-labels';

export function AppUiLabels({ children }: { children: ReactNode }) {
  const { t, i18n } = useTranslation(['common', 'shell']);
  const language = i18n.language;
  const labels = useMemo<UiLabels>(() => {
    // Asked in `language` by name: the words change with it even where `t` keeps its identity.
    const lng = { lng: language };
    return {
      close: t('actions.close', lng),
      cancel: t('actions.cancel', lng),
      confirm: t('actions.confirm', lng),
      loading: t('states.loading', lng),
      notifications: t('shell:notifications', lng),
      breadcrumb: t('shell:breadcrumb', lng),
    };
  }, [t, language]);
  return <UiLabelsContext value={labels}>{children}</UiLabelsContext>;
}
