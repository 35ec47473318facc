// unit-isolated (vite.config.ts): this file starts i18n itself, with the start-up namespaces only.
/**
 * Issue 28: the console home's first load carries only its texts. /operation loads the start-up
 * namespaces and the home's (i18n/startup.ts); any other console page loads every namespace before it
 * shows, as the whole console did before. The second test keeps the home's list complete: a namespace
 * the layout or the home uses that is not in it would show raw keys on a first visit.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMemoryRouter } from 'react-router';
import type { CurrentUser } from '../../schemas/auth';
import { DEFAULT_TENANT_ID } from '../../schemas/common';
import { installReactions, setNavigator } from '../api/reactions';
import { configureRequest } from '../api/request';
import { fail, ok, startServer, type TestServer } from '../api/testing/http-server';
import { i18n, initI18n, namespaces } from '../i18n';
import { CONSOLE_HOME_NAMESPACES, STARTUP_NAMESPACES } from '../i18n/startup';
import { buildRoutes, routeAreas } from './router';
import { useSession } from './session';

const WS = '11111111-1111-4111-8111-111111111111';
const user: CurrentUser = {
  id: '22222222-2222-4222-8222-222222222222',
  tenant_id: DEFAULT_TENANT_ID,
  tenant_name: 'Default',
  username: 'ann',
  nickname: 'Ann',
  realName: 'Ann',
  email: '',
  phone: '',
  avatar: '',
  role: 'user',
  status: 1,
};
const workspace = { id: WS, name: 'Alpha', description: '', icon: '', role_type: 'owner', member_count: 1, created_at: '2024-01-01T00:00:00.000Z', updated_at: '2024-01-01T00:00:00.000Z' };

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
  configureRequest({ baseUrl: server.url });
  // As the app starts (src/main.tsx): the start-up texts only.
  await initI18n('zh', { namespaces: STARTUP_NAMESPACES });
  installReactions();
  setNavigator(vi.fn());
  server.handle((req, res) => {
    if (req.path === `/api/v1/console/workspaces/${WS}`) return ok(res, workspace);
    fail(res, 400, 'VALIDATION-1000', 'Workspace does not exist');
  });
  useSession.setState({ accessToken: 'tok', refreshToken: 'rt', tokenExpiresAt: Date.now() + 900_000, user });
});
afterAll(() => server.close());

const loaded = () => namespaces.filter((ns) => i18n.hasLoadedNamespace(ns)).sort();

describe('console texts by route (issue 28)', () => {
  it('the console home loads the start-up and home namespaces only; another console page loads them all', async () => {
    const router = createMemoryRouter(buildRoutes(), { initialEntries: ['/operation'], ...routeAreas() });
    const idle = () => expect(router.state.initialized && router.state.navigation.state === 'idle').toBe(true);
    await vi.waitFor(idle, { timeout: 15000 });
    expect(router.state.location.pathname).toBe('/operation');
    expect(loaded()).toEqual([...new Set([...STARTUP_NAMESPACES, ...CONSOLE_HOME_NAMESPACES])].sort());

    await router.navigate(`/operation/workspace/${WS}/app`);
    await vi.waitFor(idle, { timeout: 15000 });
    expect(router.state.location.pathname).toBe(`/operation/workspace/${WS}/app`);
    expect(loaded()).toEqual([...namespaces].sort());
  });

  it('every namespace the console layout and home name in their sources is in the home list', () => {
    const src = path.resolve(__dirname, '..');
    const dirs = ['app/shell', 'app/screens/operation', 'ui'].map((d) => path.join(src, d));
    const files = dirs.flatMap((d) => fs.readdirSync(d).filter((f) => /\.tsx?$/.test(f) && !/\.(test|stories)\.tsx?$/.test(f)).map((f) => path.join(d, f)));
    // Files of the shell that only the console's other areas load (after every namespace).
    const elsewhere = new Set(['console-sections.tsx']);
    const used = new Set<string>();
    for (const file of files) {
      if (elsewhere.has(path.basename(file))) continue;
      const text = fs.readFileSync(file, 'utf8');
      for (const m of text.matchAll(/useTranslation\(([^)]*)\)/g)) for (const ns of m[1].match(/'([\w-]+)'/g) ?? []) used.add(ns.slice(1, -1));
      for (const m of text.matchAll(/\b(?:t|tDynamic|i18n\.t)\(\s*[`']([\w-]+):/g)) used.add(m[1]);
    }
    const home = new Set<string>([...STARTUP_NAMESPACES, ...CONSOLE_HOME_NAMESPACES]);
    expect([...used].filter((ns) => namespaces.includes(ns) && !home.has(ns)).sort()).toEqual([]);
    expect(used.has('workspace')).toBe(true);
  });
});
