import { useTranslation } from 'react-i18next';
import { useNavigate, useRouteError } from 'react-router';
import { backHref, ErrorScreen } from '../../shell/error-screen';
import { RouteErrorBoundary } from '../../shell/route-error';
import { isAppNotFound } from './app-guard';

/**
 * The error element of the app editor routes: an app that does not exist or cannot be viewed shows the
 * error screen of spec 2 with its id and a way back to the console home; anything else as any route.
 */
export function AppRouteError() {
  const { t } = useTranslation('apps');
  const error = useRouteError();
  const navigate = useNavigate();
  if (!isAppNotFound(error)) return <RouteErrorBoundary />;
  return <ErrorScreen kind="not-found" title={t('guard.notFound')} id={error.appId} back="operation" onBack={() => navigate(backHref.operation)} />;
}
