import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import type { CurrentUser, TokenPair } from '../../schemas/auth';

/** localStorage key of the persisted session (local auth mode, spec 7.2 mode 1). */
export const SESSION_STORAGE_KEY = 'weft.session';

export interface SessionData {
  accessToken: string | null;
  refreshToken: string | null;
  /** Epoch milliseconds when the access token expires. */
  tokenExpiresAt: number | null;
  /** Sent as X-Tenant-Id. */
  tenantId: string | null;
  user: CurrentUser | null;
  /** Sent as X-Workspace-Id; set by the workspace guard. */
  workspaceId: string | null;
}

export interface SessionActions {
  /** Stores a token pair from login or refresh; `tenantId` when known (login). */
  setTokens(pair: TokenPair, tenantId?: string): void;
  /** Stores the signed-in user (and takes the tenant id from it). */
  setUser(user: CurrentUser | null): void;
  setWorkspace(workspaceId: string | null): void;
  /** Forgets everything (logout, expired session). */
  clear(): void;
}

export type SessionState = SessionData & SessionActions;

const empty: SessionData = {
  accessToken: null,
  refreshToken: null,
  tokenExpiresAt: null,
  tenantId: null,
  user: null,
  workspaceId: null,
};

function memoryStorage(): Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> {
  const data = new Map<string, string>();
  return { getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v), removeItem: (k) => void data.delete(k) };
}

/**
 * The browser session: tokens, tenant, user and current workspace, persisted in localStorage under
 * `weft.session` and kept in step across tabs (another tab's refresh or logout is picked up at once).
 *
 * @example
 * const user = useSession((s) => s.user);             // in a component
 * const { accessToken } = useSession.getState();       // outside React
 */
export const useSession = create<SessionState>()(
  persist(
    (set) => ({
      ...empty,
      setTokens: (pair, tenantId) =>
        set((s) => ({
          accessToken: pair.access_token,
          refreshToken: pair.refresh_token,
          tokenExpiresAt: Date.now() + pair.expires_in * 1000,
          tenantId: tenantId ?? s.tenantId,
        })),
      setUser: (user) => set((s) => ({ user, tenantId: user?.tenant_id ?? s.tenantId })),
      setWorkspace: (workspaceId) => set({ workspaceId }),
      clear: () => set({ ...empty }),
    }),
    {
      name: SESSION_STORAGE_KEY,
      version: 1,
      // Outside a browser (server-side tests, tools) a memory store stands in for localStorage.
      storage: createJSONStorage(() => (typeof localStorage === 'undefined' ? memoryStorage() : localStorage)),
      partialize: (s): SessionData => ({
        accessToken: s.accessToken,
        refreshToken: s.refreshToken,
        tokenExpiresAt: s.tokenExpiresAt,
        tenantId: s.tenantId,
        user: s.user,
        workspaceId: s.workspaceId,
      }),
    },
  ),
);

/** Whether an access token is held (it may still be expired: the request layer refreshes it). */
export const isSignedIn = (s: SessionData = useSession.getState()) => Boolean(s.accessToken);

if (typeof window !== 'undefined') {
  // Refresh tokens rotate: a tab that refreshed or logged out must not leave the others with stale tokens.
  window.addEventListener('storage', (e) => {
    if (e.key !== null && e.key !== SESSION_STORAGE_KEY) return;
    // key null: the other tab cleared the whole storage.
    if (e.key === null || e.newValue === null) useSession.setState({ ...empty });
    else void useSession.persist.rehydrate();
  });
}
