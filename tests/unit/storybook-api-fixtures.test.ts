import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { answerRequest, apiRoutes, onFixtureError, route } from '../../.storybook/api-fixtures';
import { Workspace } from '../../schemas/workspace';

const url = (path: string) => new URL(path, 'http://localhost:6006');
const WS = '0c000000-0000-4000-8000-0000000000e1';

describe('Storybook API fixtures (.storybook/api-fixtures.ts)', () => {
  // A refusal is also logged (for Storybook's browser console); kept out of the test output.
  beforeEach(() => void vi.spyOn(console, 'error').mockImplementation(() => {}));
  afterEach(() => {
    onFixtureError(undefined);
    vi.restoreAllMocks();
  });

  it('answers a known route in the server envelope, path parameters filled in', async () => {
    const res = answerRequest('get', url(`/api/v1/console/workspaces/${WS}`));
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ code: 0, data: { id: WS, role_type: 'owner' } });
    expect(Workspace.parse(body.data).id).toBe(WS);
  });

  it('refuses a request no route answers and names it to the listener', async () => {
    const heard: string[] = [];
    onFixtureError((msg) => heard.push(msg));
    const wrongMethod = answerRequest('POST', url('/api/v1/console/plugins/installed'));
    const unknown = answerRequest('GET', url('/api/v1/console/apps?page=2'));
    expect([wrongMethod.status, unknown.status]).toEqual([501, 501]);
    expect((await unknown.json()).msg).toContain('GET /api/v1/console/apps?page=2');
    expect(heard).toHaveLength(2);
    expect(heard[0]).toContain('POST /api/v1/console/plugins/installed');
  });

  it('refuses an answer its schema does not pass, naming the request', () => {
    const heard: string[] = [];
    onFixtureError((msg) => heard.push(msg));
    const bad = route('GET', '/api/v1/console/workspaces/:workspace_id', Workspace, ({ params }) => ({ id: params.workspace_id }) as never);
    expect(answerRequest('GET', url(`/api/v1/console/workspaces/${WS}`), [bad]).status).toBe(500);
    expect(heard[0]).toContain(`GET /api/v1/console/workspaces/${WS}`);
  });

  it("every route's answer passes its schema", () => {
    const heard: string[] = [];
    onFixtureError((msg) => heard.push(msg));
    for (const r of apiRoutes) expect(answerRequest(r.method, url(r.path.replace(/:[a-z_]+/g, WS))).status, r.path).toBe(200);
    expect(heard).toEqual([]);
  });
});
