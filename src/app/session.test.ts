import { beforeEach, describe, expect, it } from 'vitest';
import { SESSION_STORAGE_KEY, useSession } from './session';

beforeEach(() => useSession.getState().clear());

describe('session', () => {
  it('stores a token pair with its expiry time and persists it under weft.session', () => {
    const before = Date.now();
    useSession.getState().setTokens({ access_token: 'a', refresh_token: 'r', token_type: 'Bearer', expires_in: 900 }, 'ten');
    const s = useSession.getState();
    expect(s).toMatchObject({ accessToken: 'a', refreshToken: 'r', tenantId: 'ten' });
    expect(s.tokenExpiresAt).toBeGreaterThanOrEqual(before + 900_000);
    const stored = JSON.parse(localStorage.getItem(SESSION_STORAGE_KEY) ?? '{}') as { state: Record<string, unknown> };
    expect(stored.state).toMatchObject({ accessToken: 'a', refreshToken: 'r', tenantId: 'ten', user: null, workspaceId: null });
    expect(stored.state).not.toHaveProperty('setTokens');
  });

  it('setWorkspace and clear', () => {
    useSession.getState().setWorkspace('w1');
    expect(useSession.getState().workspaceId).toBe('w1');
    useSession.getState().clear();
    expect(useSession.getState()).toMatchObject({ accessToken: null, workspaceId: null, user: null });
  });

  it('follows another tab: a rotated token, then a sign-out', async () => {
    const other = { state: { accessToken: 'b', refreshToken: 'r2', tokenExpiresAt: 1, tenantId: 't', user: null, workspaceId: null }, version: 1 };
    localStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify(other));
    window.dispatchEvent(new StorageEvent('storage', { key: SESSION_STORAGE_KEY, newValue: JSON.stringify(other) }));
    await new Promise((r) => setTimeout(r, 0));
    expect(useSession.getState()).toMatchObject({ accessToken: 'b', refreshToken: 'r2' });

    localStorage.removeItem(SESSION_STORAGE_KEY);
    window.dispatchEvent(new StorageEvent('storage', { key: SESSION_STORAGE_KEY, newValue: null }));
    expect(useSession.getState().accessToken).toBeNull();
  });
});
