/**
 * The caller's project spaces, shared by the operation home (list) and the top bar's workspace
 * switcher: loaded once, refreshed after a create, edit or delete, forgotten on sign-out.
 */
import { create } from 'zustand';
import type { Workspace } from '../../../schemas/workspace';
import { listWorkspaces } from '../../api/workspaces';
import { useSession } from '../session';

export interface WorkspacesState {
  items: Workspace[];
  status: 'idle' | 'loading' | 'ready' | 'error';
  /** Loads the list (once, unless `force`); concurrent callers share the call. */
  load(force?: boolean): Promise<void>;
  /** Puts a created or changed workspace in the list without a round trip. */
  upsert(workspace: Workspace): void;
  remove(id: string): void;
  reset(): void;
}

let inflight: Promise<void> | null = null;

export const useWorkspaces = create<WorkspacesState>()((set, get) => ({
  items: [],
  status: 'idle',
  load(force = false) {
    if (inflight) return inflight;
    if (!force && get().status === 'ready') return Promise.resolve();
    set({ status: get().status === 'ready' ? 'ready' : 'loading' });
    const token = useSession.getState().accessToken;
    const p = listWorkspaces({}, { workspaceId: null })
      .then((page) => {
        // Signed out (or in as someone else) meanwhile: drop the answer.
        if (useSession.getState().accessToken === token) set({ items: page.items, status: 'ready' });
      })
      .catch(() => set({ status: get().status === 'ready' ? 'ready' : 'error' }))
      .finally(() => {
        if (inflight === p) inflight = null;
      });
    inflight = p;
    return p;
  },
  upsert(workspace) {
    const items = get().items;
    const i = items.findIndex((w) => w.id === workspace.id);
    set({ items: i < 0 ? [workspace, ...items] : items.map((w) => (w.id === workspace.id ? workspace : w)) });
  },
  remove(id) {
    set({ items: get().items.filter((w) => w.id !== id) });
  },
  reset() {
    inflight = null;
    set({ items: [], status: 'idle' });
  },
}));

// A new session (sign-in as someone else, sign-out, another tab) must not show the previous list.
useSession.subscribe((s, prev) => {
  if (s.accessToken !== prev.accessToken && (!s.accessToken || !prev.accessToken || s.user?.id !== prev.user?.id)) {
    useWorkspaces.getState().reset();
  }
});
