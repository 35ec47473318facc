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
  const labels = useMemo<UiLabels>(
    () => ({
      close: t('actions.close'),
      cancel: t('actions.cancel'),
      confirm: t('actions.confirm'),
      loading: t('states.loading'),
      notifications: t('shell:notifications'),
      breadcrumb: t('shell:breadcrumb'),
    }),
    // `language` too: the words change with it even where `t` keeps its identity.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t, language],
  );
  return <UiLabelsContext value={labels}>{children}</UiLabelsContext>;
}
