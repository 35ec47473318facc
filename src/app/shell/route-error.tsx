import { RotateCw } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useNavigate, useRouteError } from 'react-router';
import { PARAM_ERROR } from '../../api/error-codes';
import { describeError } from '../../api/reactions';
import { ApiError } from '../../api/request';
import { tDynamic } from '../../i18n';
import { Button } from '../../ui/button';
import { isRouteNotFound } from '../guards';
import { backHref, ErrorScreen, type BackTarget } from './error-screen';
import { useArea, type Area } from './route-handle';

/** The back button's target for an area of the product. */
export function backTargetOf(area: Area | undefined): BackTarget {
  return area === 'system' ? 'system' : area === 'store' ? 'store' : 'operation';
}

export interface RouteErrorViewProps {
  error: unknown;
  back: BackTarget;
  onBack(): void;
  fullPage?: boolean;
}

/** What an error thrown while opening a route looks like (presentational; see {@link RouteErrorBoundary}). */
export function RouteErrorView({ error, back, onBack, fullPage }: RouteErrorViewProps) {
  const { t } = useTranslation(['pages', 'common', 'errors']);
  if (isRouteNotFound(error)) {
    return (
      <ErrorScreen
        kind="not-found"
        title={tDynamic(`errors:notFound.${error.errorType}`)}
        id={error.errorId}
        back={back}
        onBack={onBack}
        fullPage={fullPage}
      />
    );
  }
  if (isRouteErrorResponse(error) && error.status === 404) return <ErrorScreen kind="lost" back={back} onBack={onBack} fullPage={fullPage} />;
  if ((isRouteErrorResponse(error) && error.status === 403) || (error instanceof ApiError && (error.status === 403 || error.code === PARAM_ERROR))) {
    return <ErrorScreen kind="no-permission" back={back} onBack={onBack} fullPage={fullPage} />;
  }
  const detail = error instanceof ApiError ? describeError(error)?.text : error instanceof Error ? error.message : undefined;
  return (
    <ErrorScreen
      kind="lost"
      title={t('error.unexpected')}
      description={detail ?? t('error.unexpectedHint')}
      fullPage={fullPage}
      actions={
        <>
          <Button onClick={onBack}>{t(`error.back.${back}`)}</Button>
          <Button variant="primary" icon={<RotateCw aria-hidden="true" />} onClick={() => window.location.reload()}>
            {t('common:actions.reload')}
          </Button>
        </>
      }
    />
  );
}

/** `errorElement` of the routes: the error screen for what the route's loader (or render) threw. */
export function RouteErrorBoundary({ fullPage }: { fullPage?: boolean }) {
  const error = useRouteError();
  const navigate = useNavigate();
  const back = backTargetOf(useArea());
  if (!isRouteNotFound(error) && !isRouteErrorResponse(error) && !(error instanceof ApiError)) console.error(error);
  return <RouteErrorView error={error} back={back} onBack={() => navigate(backHref[back])} fullPage={fullPage} />;
}

/** The root route's error element: fills the page (no layout around it). */
export function RootErrorBoundary() {
  return <RouteErrorBoundary fullPage />;
}
