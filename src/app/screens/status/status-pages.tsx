/**
 * /403, /404 (spec 2 top level) and /operation/error (the error screen as a page, reached with
 * `?type=no-permission|not-found&id=…&back=operation|store|system`).
 */
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { backHref, ErrorScreen, type BackTarget } from '../../shell/error-screen';

export function ForbiddenPage() {
  const { t } = useTranslation(['pages', 'common', 'errors']);
  const navigate = useNavigate();
  return (
    <ErrorScreen
      kind="no-permission"
      title={t('forbidden.title')}
      description={t('forbidden.description')}
      fullPage
      onBack={() => navigate(backHref.operation)}
    />
  );
}

export function NotFoundPage() {
  const navigate = useNavigate();
  return <ErrorScreen kind="lost" fullPage onBack={() => navigate(backHref.operation)} />;
}

const BACKS: BackTarget[] = ['operation', 'store', 'system'];

export function ErrorPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const kind = params.get('type') === 'not-found' ? 'not-found' : 'no-permission';
  const back = (BACKS as string[]).includes(params.get('back') ?? '') ? (params.get('back') as BackTarget) : 'operation';
  return <ErrorScreen kind={kind} id={params.get('id')} back={back} onBack={() => navigate(backHref[back], { replace: true })} />;
}
