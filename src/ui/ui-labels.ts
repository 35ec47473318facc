import { createContext, useContext } from 'react';

/** The few words the primitives say on their own (a dialog's close button, a spinner's status…). */
export interface UiLabels {
  close: string;
  cancel: string;
  confirm: string;
  loading: string;
  /** The toasts' region (Radix adds the F8 hint after it). */
  notifications: string;
  breadcrumb: string;
}

/** English, for stories and tests; the app provides its current language's (src/app/app.tsx). */
export const defaultUiLabels: UiLabels = {
  close: 'Close',
  cancel: 'Cancel',
  confirm: 'Confirm',
  loading: 'Loading',
  notifications: 'Notifications',
  breadcrumb: 'Breadcrumb',
};

/**
 * The primitives take these words from here when a caller passes none: the ui kit has no i18n, and a
 * default per call site was forgotten often enough (four dialogs said "Close" in the Chinese UI).
 * @example <UiLabelsContext value={{ ...defaultUiLabels, close: t('actions.close') }}>…</UiLabelsContext>
 */
export const UiLabelsContext = createContext<UiLabels>(defaultUiLabels);

export const useUiLabels = () => useContext(UiLabelsContext);
