import { describe, expect, it } from 'vitest';
import { readSettings } from '../settings';
import { issuerOf } from './oidc';

describe('single sign-on settings', () => {
  it('reads the Keycloak realm as the issuer {url}/realms/{realm}', () => {
    const s = readSettings({ WEFT_AUTH_MODE: 'keycloak', WEFT_KEYCLOAK_URL: 'https://id.example.com/', WEFT_KEYCLOAK_REALM: 'acme', WEFT_OIDC_CLIENT_ID: 'weft' });
    expect(issuerOf(s)?.href).toBe('https://id.example.com/realms/acme');
    expect(s.localLogin).toBe('super_admin');
  });

  it('takes any OpenID issuer in sso mode, and none in local mode', () => {
    const s = readSettings({ WEFT_AUTH_MODE: 'sso', WEFT_OIDC_ISSUER: 'https://login.example.com/tenant', WEFT_OIDC_CLIENT_ID: 'weft' });
    expect(issuerOf(s)?.href).toBe('https://login.example.com/tenant');
    expect(issuerOf(readSettings({}))).toBeNull();
  });

  it('refuses a single sign-on mode without its provider or client', () => {
    expect(() => readSettings({ WEFT_AUTH_MODE: 'sso', WEFT_OIDC_CLIENT_ID: 'weft' })).toThrow(/WEFT_OIDC_ISSUER/);
    expect(() => readSettings({ WEFT_AUTH_MODE: 'keycloak', WEFT_KEYCLOAK_URL: 'https://id.example.com', WEFT_OIDC_CLIENT_ID: 'weft' })).toThrow(/WEFT_KEYCLOAK_REALM/);
    expect(() => readSettings({ WEFT_AUTH_MODE: 'sso', WEFT_OIDC_ISSUER: 'https://login.example.com' })).toThrow(/WEFT_OIDC_CLIENT_ID/);
    expect(() => readSettings({ WEFT_AUTH_MODE: 'sso', WEFT_OIDC_ISSUER: 'ftp://login.example.com', WEFT_OIDC_CLIENT_ID: 'weft' })).toThrow();
    expect(() => readSettings({ WEFT_LOCAL_LOGIN: 'everyone' })).toThrow();
  });
});
