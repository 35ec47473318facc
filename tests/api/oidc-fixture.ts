/**
 * A real OpenID provider (oidc-provider) on loopback for the single sign-on tests, with its
 * development login and consent pages, and a driver that signs a user in through those pages over
 * HTTP (what a browser does) and answers the provider's redirect back to Weft.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export interface TestAccount {
  sub: string;
  preferred_username?: string;
  email?: string;
  name?: string;
  weft_tenant?: string;
  weft_role?: string;
}

export interface OidcFixture {
  issuer: string;
  /** The lifetime of the next authorization codes the provider issues. */
  codeTtlSeconds: number;
  provider: Provider;
  accounts: Map<string, TestAccount>;
  /** Signs `login` in at the provider from its authorization URL; the redirect URL back to Weft (with code and state). */
  signIn(authorizationUrl: string, login: string): Promise<URL>;
  close(): Promise<void>;
}

export interface OidcFixtureOptions {
  clientId: string;
  clientSecret?: string;
  redirectUris: string[];
  postLogoutRedirectUris?: string[];
  /** Mounts the provider under a path (Keycloak's /realms/{realm}): the issuer ends with it. */
  issuerPath?: string;
}

export async function startOidcProvider(opts: OidcFixtureOptions): Promise<OidcFixture> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const prefix = opts.issuerPath ?? '';
  const issuer = origin + prefix;
  const accounts = new Map<string, TestAccount>();
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: opts.clientId,
        ...(opts.clientSecret ? { client_secret: opts.clientSecret, token_endpoint_auth_method: 'client_secret_basic' } : { token_endpoint_auth_method: 'none' }),
        redirect_uris: opts.redirectUris,
        post_logout_redirect_uris: opts.postLogoutRedirectUris ?? [],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    claims: { openid: ['sub'], profile: ['name', 'preferred_username', 'weft_tenant', 'weft_role'], email: ['email'] },
    // Every claim in the id token too (Keycloak's default for its mappers).
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    cookies: { keys: ['weft-test-cookie-key'] },
    features: { devInteractions: { enabled: true }, rpInitiatedLogout: { enabled: true } },
    // Read at each code's issue: a test shortens it to see an expired code refused.
    ttl: { AuthorizationCode: () => fixture.codeTtlSeconds },
    async findAccount(_ctx, id) {
      const a = accounts.get(id);
      if (!a) return undefined;
      return { accountId: id, claims: async () => ({ ...a }) };
    },
  });
  const handle = provider.callback();
  server.on('request', (req, res) => {
    // Mounted under the issuer's path, as Keycloak serves a realm.
    if (prefix && req.url?.startsWith(prefix)) {
      // As a framework's mount does: oidc-provider reads the mount path from originalUrl.
      (req as { originalUrl?: string }).originalUrl = req.url;
      req.url = req.url.slice(prefix.length) || '/';
    }
    handle(req, res);
  });

  async function signIn(authorizationUrl: string, login: string): Promise<URL> {
    const jar = new Map<string, string>();
    const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const keep = (res: Response) => {
      for (const c of res.headers.getSetCookie()) {
        const [pair] = c.split(';');
        const i = pair.indexOf('=');
        jar.set(pair.slice(0, i), pair.slice(i + 1));
      }
    };
    let url = new URL(authorizationUrl);
    for (let hop = 0; hop < 20; hop++) {
      if (!url.href.startsWith(origin)) return url;
      if (url.pathname.startsWith(`${prefix}/interaction/`)) {
        const page = await fetch(url, { headers: { cookie: cookieHeader() } });
        keep(page);
        const html = await page.text();
        const prompt = /name="prompt" value="(\w+)"/.exec(html)?.[1];
        if (!prompt) throw new Error(`no prompt on the provider's page: ${html.slice(0, 300)}`);
        const res = await fetch(url, {
          method: 'POST',
          redirect: 'manual',
          headers: { cookie: cookieHeader(), 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(prompt === 'login' ? { prompt, login, password: 'any' } : { prompt }).toString(),
        });
        keep(res);
        url = new URL(res.headers.get('location')!, url);
        continue;
      }
      const res = await fetch(url, { redirect: 'manual', headers: { cookie: cookieHeader() } });
      keep(res);
      const location = res.headers.get('location');
      if (!location) throw new Error(`the provider answered ${res.status} without a redirect: ${(await res.text()).slice(0, 300)}`);
      url = new URL(location, url);
    }
    throw new Error('too many redirects at the provider');
  }

  const fixture: OidcFixture = {
    issuer,
    codeTtlSeconds: 60,
    provider,
    accounts,
    signIn,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return fixture;
}
