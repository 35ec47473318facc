import * as client from 'openid-client';
import type { Settings } from '../settings';
import { createOutboundPolicy, hostPort, type OutboundPolicy } from '../security/outbound-policy';
import { createPolicyFetch } from '../http/policy-fetch';
import type { Db } from '../db/client';
import { AppError } from '../errors';
import { ErrorCode } from '../../../schemas/errors';

/** The issuer the settings name: WEFT_OIDC_ISSUER, else Keycloak's {url}/realms/{realm}; null in local mode. */
export function issuerOf(s: Pick<Settings, 'authMode' | 'oidcIssuer' | 'keycloakUrl' | 'keycloakRealm'>): URL | null {
  if (s.authMode === 'local') return null;
  if (s.authMode === 'sso' && s.oidcIssuer) return new URL(s.oidcIssuer);
  if (!s.keycloakUrl || !s.keycloakRealm) return null;
  return new URL(`${s.keycloakUrl.replace(/\/+$/, '')}/realms/${encodeURIComponent(s.keycloakRealm)}`);
}

/** The provider's failure as the catalogue's 'Social login failure'; the detail only in the log. */
export function ssoFailed(detail: string): AppError {
  return new AppError(400, ErrorCode.SSO_FAILED, `Social login failure: ${detail}`);
}

export interface RelyingParty {
  issuer: URL;
  /** The provider's discovered configuration (fetched once; again after a failure). */
  config(): Promise<client.Configuration>;
  /** Forgets the discovered configuration (a failed discovery is not kept either). */
  reset(): void;
}

/**
 * Weft as an OpenID Connect relying party of the operator's provider. Every call to the provider
 * (discovery, token, keys) goes through the outbound network policy; the issuer's own host and port
 * are allowed by this configuration (the operator named them), also when private or loopback, as if
 * they were in WEFT_OUTBOUND_ALLOW. Endpoints the discovery document puts on other hosts are not.
 */
export function createRelyingParty(db: Db, settings: Settings, log?: (detail: unknown) => void): RelyingParty | null {
  const issuer = issuerOf(settings);
  if (!issuer || !settings.oidcClientId) return null;
  const port = issuer.port ? Number(issuer.port) : issuer.protocol === 'https:' ? 443 : 80;
  const issuerEntry = hostPort(issuer.hostname.replace(/^\[|\]$/g, ''), port);
  const policy: OutboundPolicy = createOutboundPolicy({
    db,
    settings: {
      get outboundAllow() {
        return [...settings.outboundAllow, issuerEntry];
      },
      get mcpStdioCommands() {
        return settings.mcpStdioCommands;
      },
      get httpAllowPrivate() {
        return settings.httpAllowPrivate;
      },
    },
    log: log && ((d) => log(d)),
  });
  const fetcher = createPolicyFetch(policy, 'identity', { connectTimeoutMs: 10_000 });
  let pending: Promise<client.Configuration> | null = null;
  const clientId = settings.oidcClientId;
  return {
    issuer,
    config() {
      pending ??= client
        .discovery(
          issuer,
          clientId,
          settings.oidcClientSecret,
          // PKCE always; with a secret the client also authenticates (client_secret_basic, what Keycloak's confidential clients take).
          settings.oidcClientSecret ? client.ClientSecretBasic(settings.oidcClientSecret) : client.None(),
          {
            [client.customFetch]: (url, options) => fetcher(url, options as RequestInit),
            // A provider on plain http (a local Keycloak, tests on loopback): the operator's choice of URL.
            execute: issuer.protocol === 'http:' ? [client.allowInsecureRequests] : [],
            timeout: 15,
          },
        )
        .catch((e: unknown) => {
          pending = null;
          log?.({ msg: 'OpenID discovery failed', issuer: issuer.href, error: String(e) });
          throw ssoFailed('the identity provider cannot be reached');
        });
      return pending;
    },
    reset() {
      pending = null;
    },
  };
}
