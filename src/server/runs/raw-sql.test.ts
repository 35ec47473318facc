import { describe, expect, it } from 'vitest';
import { conversations, nodeExecutions, runs } from '../db/schema';
import { combine, insertRows, updateRow } from './raw-sql';

const at = new Date('2026-11-27T08:00:00.000Z');

describe('raw statements of whole runs', () => {
  it('inserts the columns the rows set, each value mapped as drizzle maps it (jsonb as JSON text, times as ISO)', () => {
    const q = insertRows(conversations, [
      { id: 'c1', tenantId: 't', workspaceId: 'w', appId: 'a', source: 'api', name: 'Hi', variables: { n: [1, 2] }, versionId: null, createdBy: 'u', endUser: 'alice', createdAt: at, updatedAt: at },
    ]);
    expect(q.text).toBe(
      'INSERT INTO "conversations" ("id", "tenant_id", "workspace_id", "app_id", "source", "name", "variables", "version_id", "created_by", "end_user", "created_at", "updated_at") ' +
        'VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)',
    );
    expect(q.params).toEqual(['c1', 't', 'w', 'a', 'api', 'Hi', '{"n":[1,2]}', null, 'u', 'alice', at.toISOString(), at.toISOString()]);
  });

  it('gives a row the database default for a column only another row sets, and can skip conflicts', () => {
    const base = { runId: 'r', seq: 1, nodeId: 'n', kind: 'code', status: 'succeeded' as const, startedAt: at };
    const q = insertRows(nodeExecutions, [{ ...base, id: 'e1', executionId: 'x1' }, { ...base, id: 'e2', executionId: 'x2', error: { code: 'E', message: 'm' } }], { onConflictDoNothing: true });
    expect(q.text).toBe(
      'INSERT INTO "node_executions" ("id", "run_id", "execution_id", "seq", "node_id", "kind", "status", "error", "started_at") ' +
        'VALUES ($1, $2, $3, $4, $5, $6, $7, DEFAULT, $8), ($9, $10, $11, $12, $13, $14, $15, $16, $17) ON CONFLICT DO NOTHING',
    );
    expect(q.params.slice(-2)).toEqual(['{"code":"E","message":"m"}', at.toISOString()]);
    expect(q.text.match(/\$\d+/g)).toHaveLength(q.params.length);
  });

  it("upserts: on a conflict of the target columns the named columns take the new row's values", () => {
    const q = insertRows(nodeExecutions, [{ id: 'e1', runId: 'r', executionId: 'x1', seq: 1, nodeId: 'n', kind: 'code', status: 'succeeded', startedAt: at }], {
      onConflictDoUpdate: { target: ['runId', 'executionId'], set: ['status', 'elapsedMs'] },
    });
    expect(q.text).toMatch(/ ON CONFLICT \("run_id", "execution_id"\) DO UPDATE SET "status" = excluded\."status", "elapsed_ms" = excluded\."elapsed_ms"$/);
    expect(() => insertRows(nodeExecutions, [{ id: 'e1' }], { onConflictDoUpdate: { target: ['nope'], set: [] } })).toThrow(/no column nope/);
  });

  it('updates one row by its key', () => {
    expect(updateRow(conversations, { variables: { a: 1 }, updatedAt: at }, ['id', 'c1'])).toMatchObject({
      text: 'UPDATE "conversations" SET "variables" = $1, "updated_at" = $2 WHERE "id" = $3',
      params: ['{"a":1}', at.toISOString(), 'c1'],
    });
  });

  it('joins one-row updates of the same table and columns into one UPDATE … FROM (VALUES …) with typed values (the ends of streamed runs)', () => {
    const end = (id: string, n: number) => updateRow(runs, { status: 'succeeded', outputs: { n }, totalTokens: n, finishedAt: at }, ['id', id]);
    const conv = (id: string) => updateRow(conversations, { variables: {}, updatedAt: at }, ['id', id]);
    const q = combine([end('r1', 1), conv('c1'), end('r2', 2), conv('c2'), updateRow(runs, { status: 'failed' }, ['id', 'r3'])]);
    expect(q.text).toBe(
      'WITH w0 AS (UPDATE "runs" AS t SET "status" = v.c0, "outputs" = v.c1, "total_tokens" = v.c2, "finished_at" = v.c3 ' +
        'FROM (VALUES ($1::text, $2::jsonb, $3::integer, $4::timestamp with time zone, $5::uuid), ($9::text, $10::jsonb, $11::integer, $12::timestamp with time zone, $13::uuid)) AS v(c0, c1, c2, c3, k) WHERE t."id" = v.k), ' +
        'w1 AS (UPDATE "conversations" AS t SET "variables" = v.c0, "updated_at" = v.c1 FROM (VALUES ($6::jsonb, $7::timestamp with time zone, $8::uuid), ($14::jsonb, $15::timestamp with time zone, $16::uuid)) AS v(c0, c1, k) WHERE t."id" = v.k), ' +
        // Other columns: apart, in its own form.
        'w2 AS (UPDATE "runs" SET "status" = $17 WHERE "id" = $18) SELECT 1',
    );
    expect(q.params).toEqual(['succeeded', '{"n":1}', 1, at.toISOString(), 'r1', '{}', at.toISOString(), 'c1', 'succeeded', '{"n":2}', 2, at.toISOString(), 'r2', '{}', at.toISOString(), 'c2', 'failed', 'r3']);
    // The same row twice stays two updates, as before (one statement cannot update a row twice through one UPDATE's join).
    expect(combine([conv('c1'), conv('c1')]).text).toBe('WITH w0 AS (UPDATE "conversations" SET "variables" = $1, "updated_at" = $2 WHERE "id" = $3), w1 AS (UPDATE "conversations" SET "variables" = $4, "updated_at" = $5 WHERE "id" = $6) SELECT 1');
  });

  it('joins statements as data-modifying CTEs, numbering the parameters on (two digits too)', () => {
    const ten = { text: `SELECT ${Array.from({ length: 10 }, (_, i) => `$${i + 1}`).join(', ')}`, params: Array.from({ length: 10 }, (_, i) => i) };
    const q = combine([ten, { text: 'DELETE FROM t WHERE a = $1 AND b = $2', params: ['a', 'b'] }, ten]);
    expect(q.text).toBe(
      'WITH w0 AS (SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10), w1 AS (DELETE FROM t WHERE a = $11 AND b = $12), ' +
        'w2 AS (SELECT $13, $14, $15, $16, $17, $18, $19, $20, $21, $22) SELECT 1',
    );
    expect(q.params).toEqual([...ten.params, 'a', 'b', ...ten.params]);
  });

  it("joins the rows of inserts into the same table with the same columns and conflict clause into one INSERT (a statement of many runs plans one INSERT per table, not one per run)", () => {
    const run = (id: string) => insertRows(runs, [{ id, tenantId: 't', workspaceId: 'w', appId: 'a', mode: 'workflow', source: 'api', createdBy: 'u', createdAt: at }]);
    const node = (runId: string) => insertRows(nodeExecutions, [{ id: `e-${runId}`, runId, executionId: 'x', seq: 1, nodeId: 'n', kind: 'code', status: 'succeeded', startedAt: at }], { onConflictDoNothing: true });
    const update = updateRow(conversations, { variables: {} }, ['id', 'c1']);
    const q = combine([run('r1'), node('r1'), update, run('r2'), node('r2')]);
    const ctes = q.text.match(/w\d+ AS \(/g) ?? [];
    expect(ctes).toHaveLength(3);
    expect(q.text).toBe(
      'WITH w0 AS (INSERT INTO "runs" ("id", "tenant_id", "workspace_id", "app_id", "mode", "source", "created_by", "created_at") VALUES ($1, $2, $3, $4, $5, $6, $7, $8), ($19, $20, $21, $22, $23, $24, $25, $26)), ' +
        'w1 AS (INSERT INTO "node_executions" ("id", "run_id", "execution_id", "seq", "node_id", "kind", "status", "started_at") VALUES ($9, $10, $11, $12, $13, $14, $15, $16), ($27, $28, $29, $30, $31, $32, $33, $34) ON CONFLICT DO NOTHING), ' +
        'w2 AS (UPDATE "conversations" SET "variables" = $17 WHERE "id" = $18) SELECT 1',
    );
    expect(q.params[18]).toBe('r2');
    expect(q.params[27]).toBe('r2');
    expect(q.params).toHaveLength(34);
    // Different columns (or conflict clauses) stay apart.
    const other = insertRows(runs, [{ id: 'r3', tenantId: 't', workspaceId: 'w', appId: 'a', mode: 'workflow', source: 'api', createdBy: 'u', endUser: 'bob', createdAt: at }]);
    expect(combine([run('r1'), other]).text.match(/w\d+ AS \(/g)).toHaveLength(2);
  });
});
