/**
 * The portal's reads are silent (portal-api.ts): a screen shows its own error state. Two answers
 * still need the app's reaction: an expired session goes to the sign-in page, and a call that the
 * user aborted is no error at all.
 */
import { expireSession } from '../../api/reactions';
import { isAbortError, isApiError } from '../../api/request';
import { PARAM_ERROR } from '../../api/error-codes';

/** Handles what a screen should not show itself; true when nothing is left to show (aborted, signed out). */
export function settleLoadError(e: unknown): boolean {
  if (isAbortError(e)) return true;
  if (isApiError(e) && e.status === 401) {
    expireSession('toast');
    return true;
  }
  return false;
}

/**
 * The app is not (or no longer) the user's to use: the server answers VALIDATION-1000 for an app
 * that was never distributed to them, whose distribution was cancelled, or whose space they left.
 */
export const isAccessLost = (e: unknown) => isApiError(e, PARAM_ERROR);
