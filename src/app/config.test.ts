import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TENANT_ID } from '../../schemas/common';
import { AppConfig } from '../api/common-schemas';
import { configureRequest } from '../api/request';
import { sendJson, startServer, type TestServer } from '../api/testing/http-server';
import { DEFAULT_CONFIG, getConfig, isConfigLoaded, loadConfig, setConfig } from './config';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
  configureRequest({ baseUrl: server.url });
});
afterAll(() => server.close());

describe('config', () => {
  it('writes out the defaults the schema gives (they are not parsed at start-up)', () => {
    expect(DEFAULT_CONFIG).toEqual(AppConfig.parse({ upload: { maxCount: 10, maxMb: 50 } }));
  });


  it('answers the defaults until loaded, then the parsed /config.json', async () => {
    setConfig(null);
    expect(isConfigLoaded()).toBe(false);
    expect(getConfig()).toEqual(DEFAULT_CONFIG);
    expect(DEFAULT_CONFIG).toMatchObject({ authMode: 'local', defaultTenantId: DEFAULT_TENANT_ID, tokenRefreshLeewaySeconds: 5 });

    server.handle((_req, res) => sendJson(res, 200, { authMode: 'local', upload: { maxCount: 3, maxMb: 7 }, version: '1.2.3' }));
    const cfg = await loadConfig();
    expect(server.requests[0]).toMatchObject({ method: 'GET', path: '/config.json' });
    expect(server.requests[0].headers.authorization).toBeUndefined();
    // A server that does not say its sandbox cap gets the default one (60 s), nor its code channels none.
    expect(cfg).toEqual({
      authMode: 'local',
      codeLogin: [],
      defaultTenantId: DEFAULT_TENANT_ID,
      upload: { maxCount: 3, maxMb: 7 },
      tokenRefreshLeewaySeconds: 5,
      version: '1.2.3',
      sandbox: { maxTimeoutSeconds: 60 },
    });
    expect(getConfig()).toBe(cfg);
    expect(isConfigLoaded()).toBe(true);
  });

  it("keeps the server's sandbox time cap", async () => {
    server.handle((_req, res) => sendJson(res, 200, { upload: { maxCount: 3, maxMb: 7 }, sandbox: { maxTimeoutSeconds: 15 } }));
    expect((await loadConfig()).sandbox).toEqual({ maxTimeoutSeconds: 15 });
    setConfig(null);
  });

  it('rejects a configuration that does not parse', async () => {
    server.handle((_req, res) => sendJson(res, 200, { authMode: 'saml' }));
    await expect(loadConfig()).rejects.toMatchObject({ code: 'CLIENT-BAD-RESPONSE' });
  });
});
