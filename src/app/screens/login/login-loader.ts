import { redirect } from 'react-router';
import { REDIRECT_PARAM, safeRedirectTarget } from '../../paths';
import { useSession } from '../../session';

/** /login's loader: someone already signed in goes straight on (to redirect_uri or /operation). */
export function loginLoader({ request }: { request: Request }) {
  const { accessToken, user } = useSession.getState();
  if (accessToken && user) throw redirect(safeRedirectTarget(new URL(request.url).searchParams.get(REDIRECT_PARAM)));
  return null;
}
