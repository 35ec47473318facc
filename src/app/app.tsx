/**
 * The app root: design tokens, theme, the ui kit's words in the current language, the router, and the
 * app-wide hosts (toasts, confirmations; loaded on first use, app-hosts.tsx). The request layer's reactions (spec 8.1) are wired here:
 * navigation goes through the router, messages to the toasts.
 */
import '../ui/tokens.css';
import '../ui/base.css';
import { useTranslation } from 'react-i18next';
import { RouterProvider } from 'react-router';
import { onApiMessage, setNavigator, type ApiMessage } from '../api/reactions';
import { toast } from '../ui/toast-store';
import { LazyConfirmHost, LazyToaster } from './app-hosts';
import { AppUiLabels } from './app-ui-labels';
import { createAppRouter } from './router';
import { applyInitialTheme } from './shell/theme';

if (typeof document !== 'undefined') applyInitialTheme();

/** Shows a request-layer message as a toast. */
export function showApiMessage(m: ApiMessage): void {
  toast[m.level](m.text, m.detail ? { description: m.detail } : undefined);
}

type AppRouter = ReturnType<typeof createAppRouter>;
let appRouter: AppRouter | null = null;

/**
 * The page's router, created on first use (a router starts loading the route as soon as it exists, so
 * there must be exactly one). The request layer navigates through it from then on.
 */
function getRouter(): AppRouter {
  if (!appRouter) {
    const router = createAppRouter();
    setNavigator((to, options) => void router.navigate(to, { replace: options?.replace }));
    // Subscribed here, not in an effect: the first route's loaders may already have something to say.
    onApiMessage(showApiMessage);
    appRouter = router;
  }
  return appRouter;
}

export function App() {
  const { t } = useTranslation(['common', 'shell']);
  const router = getRouter();

  return (
    <AppUiLabels>
      <RouterProvider router={router} />
      <LazyToaster closeLabel={t('actions.close')} label={t('shell:notifications')} />
      <LazyConfirmHost confirmLabel={t('actions.confirm')} cancelLabel={t('actions.cancel')} />
    </AppUiLabels>
  );
}
