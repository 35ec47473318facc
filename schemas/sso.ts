import { z } from 'zod';

/**
 * The get-auth-URL call of single sign-on (spec 7.2 mode 2): the browser is sent here and on to the
 * provider. `redirectUri` is the path of this app to land on afterwards (a same-origin path only).
 */
export const SsoAuthUrlQuery = z.object({
  appCode: z.string().trim().min(1).max(100).optional(),
  redirectUri: z.string().max(2000).optional(),
  tenantId: z.string().trim().max(100).optional(),
  loginType: z.string().trim().max(50).optional(),
});

/** The provider's redirect back (OAuth 2.0 authorization response). */
export const SsoCallbackQuery = z.object({
  code: z.string().max(4000).optional(),
  state: z.string().max(500).optional(),
  error: z.string().max(500).optional(),
  error_description: z.string().max(2000).optional(),
  iss: z.string().max(2000).optional(),
  session_state: z.string().max(500).optional(),
});

/** The one-time ticket the callback put on the landing route, exchanged for Weft's tokens. */
export const SsoTicketBody = z.object({ ticket: z.string().min(20).max(200) });

export const SsoLogoutBody = z.object({ refresh_token: z.string().max(512).optional() }).nullish();
/** `end_session_url`: where the browser goes to end the provider's session too (null: nothing to end there). */
export const SsoLogoutResult = z.object({ end_session_url: z.string().nullable() });
