/**
 * The app root. Placeholder until the shell's router (src/app/router.tsx) lands: the UI helper replaces
 * this body with `<RouterProvider router={router} />` and wires `setNavigator` to the router.
 */
import { useTranslation } from 'react-i18next';

export function App() {
  const { t } = useTranslation();
  return <div data-slot="app">{t('appName')}</div>;
}
