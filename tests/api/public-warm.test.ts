import { beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { apiKeys } from '../../src/server/db/schema';
import { apiTarget } from '../../src/server/public/target';
import { warmPublicApi } from '../../src/server/public/warm';
import { warmRunWrites } from '../../src/server/public/warm-writes';
import { useStudio } from './harness';
import { createKey, publishedApp, sayFlow, v1, type Owner } from './public-kit';
import { setUpWorkspaces, type Fixture } from './workspace-fixture';

// The public API's warm-up at start (issue 22: the first run after a start within 50 ms): it makes
// a run's writes once so the first real run finds them planned, and keeps nothing of them.

const h = useStudio();
let f: Fixture;
let appId = '';
let key = '';
let keyId = '';
const owner = (): Owner => ({ token: f.u.owner.token, workspaceId: f.wsA });

/** Everything a run or a request writes, counted, and the key's last use. */
async function written() {
  const db = h.studio.ctx.db;
  const count = async (table: string) => {
    const r = await db.execute(sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)}`);
    return Number(((r as unknown as { rows: { n: number }[] }).rows ?? (r as unknown as { n: number }[]))[0]!.n);
  };
  const [k] = await db.select({ used: apiKeys.lastUsedAt }).from(apiKeys).where(eq(apiKeys.id, keyId));
  return {
    runs: await count('runs'),
    nodes: await count('node_executions'),
    conversations: await count('conversations'),
    messages: await count('messages'),
    counters: await db.execute(sql`SELECT key_id, window_start, count FROM api_rate_counters ORDER BY key_id, window_start`).then((r) => JSON.stringify(r)),
    used: k?.used?.toISOString() ?? null,
  };
}

beforeAll(async () => {
  f = await setUpWorkspaces(h, 'publicwarm');
  appId = await publishedApp(h, owner(), 'Warm', sayFlow());
  const created = await createKey(h, owner(), appId);
  key = created.secret;
  keyId = created.id;
  // One real run first: the key has been used and the counters hold a row.
  const r = await v1(h, key, 'POST', '/workflows/run', { body: { inputs: { word: 'first' }, response_mode: 'blocking', user: 'alice' } });
  expect(r.status, r.raw.body).toBe(200);
  await new Promise((resolve) => setTimeout(resolve, 300)); // the run's rows and the request count are written
});

describe('public API warm-up', () => {
  it("makes a run's writes and keeps nothing of them", async () => {
    const before = await written();
    expect(before.runs).toBe(1);
    expect(before.nodes).toBe(3);
    const target = await apiTarget(h.studio.ctx, appId);
    await warmRunWrites(h.studio.ctx, target.app, target.flow.versionId);
    await warmRunWrites(h.studio.ctx, target.app, target.flow.versionId);
    expect(await written()).toEqual(before);
  });

  it('warmPublicApi runs without an error and changes nothing; runs go on as before', async () => {
    const before = await written();
    const errors: unknown[] = [];
    await warmPublicApi(h.studio.ctx, (e) => errors.push(e));
    expect(errors).toEqual([]);
    expect(await written()).toEqual(before);
    const r = await v1(h, key, 'POST', '/workflows/run', { body: { inputs: { word: 'again' }, response_mode: 'blocking', user: 'alice' } });
    expect(r.status, r.raw.body).toBe(200);
    expect((r.body as any).data.outputs).toEqual({ said: 'said again' });
  });
});
