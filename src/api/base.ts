/** CONSOLE base group (spec 7.5): sign-in, token refresh, sign-out, own password and profile. */
import type { z } from 'zod';
import type { CurrentUser, LoginBody, ProfileBody, TokenPair, UpdatePasswordBody } from '../../schemas/auth';
import { guard } from './guard';
import { answerSchemas } from './guard-schemas';
import { call, type Endpoint, type RequestOptions } from './request';

// Checked by guards made from the answers' zod schemas: zod is not in a page's first load (issues 21, 28).
const tokenPair = guard<TokenPair>(answerSchemas.tokenPair);
const currentUser = guard<CurrentUser>(answerSchemas.currentUser);
const nothing = guard<null>(answerSchemas.none);

type Opts = Omit<RequestOptions, 'responseType' | 'schema'>;

export const baseEndpoints = {
  login: { method: 'POST', url: '/api/v1/console/base/login', name: 'base.login' },
  refresh: { method: 'POST', url: '/api/v1/console/base/refresh', name: 'base.refresh' },
  logout: { method: 'POST', url: '/api/v1/console/base/logout', name: 'base.logout' },
  updatePassword: { method: 'POST', url: '/api/v1/console/base/update_password', name: 'base.updatePassword' },
  userinfo: { method: 'GET', url: '/api/v1/console/base/userinfo', name: 'base.userinfo' },
  profile: { method: 'PUT', url: '/api/v1/console/base/profile', name: 'base.profile' },
} as const satisfies Record<string, Endpoint>;

/**
 * Signs in (local mode). Silent by default: the sign-in form shows the failure itself
 * (`describeError(e).text`: 'Login failed: wrong account or password', 'The account … is disabled').
 * Use `signIn` from ./auth to also store the session.
 */
export const login = (body: LoginBody, opts?: Opts) =>
  call(tokenPair, baseEndpoints.login, body, { auth: false, workspaceId: null, reaction: 'silent', ...opts });

/** Exchanges a refresh token for a new pair (the refresh token rotates). Used by ./auth `refreshSession`. */
export const refreshToken = (body: { refresh_token: string }, opts?: Opts) =>
  call(tokenPair, baseEndpoints.refresh, body, { auth: false, workspaceId: null, reaction: 'silent', ...opts });

/** Revokes the refresh token on the server. Use `signOut` from ./auth, which also clears the session. */
export const logout = (body?: { refresh_token?: string }, opts?: Opts) => call(nothing, baseEndpoints.logout, body ?? {}, opts);

export const updateOwnPassword = (body: z.input<typeof UpdatePasswordBody>, opts?: Opts) =>
  call(nothing, baseEndpoints.updatePassword, body, opts);

/** The signed-in user. */
export const getUserInfo = (opts?: Opts) => call(currentUser, baseEndpoints.userinfo, undefined, opts);

/** Updates the caller's own profile; answers the updated user. */
export const updateProfile = (body: z.input<typeof ProfileBody>, opts?: Opts) => call(currentUser, baseEndpoints.profile, body, opts);
