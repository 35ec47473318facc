import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openPgliteRemote, type PgliteRemote } from '../../src/server/db/pglite-remote';

// The embedded database's thread serves reads before writes that wait with them (issues 21/34: a
// chat's reads on the way to its first token queued behind batched run and event-log writes).
// A transaction holds the queue while the statements under test are sent, so all of them wait together.
// The embedded database itself (src/server/db/pglite-worker.mjs), opened from the migrated template
// (quick), whichever database the other API tests use.

let db: PgliteRemote;
beforeAll(async () => {
  // With DATABASE_URL the setup makes no embedded template (CI runs this file on the embedded step only).
  const template = inject('pgTemplate');
  db = await openPgliteRemote(template ? { loadDataDir: new Blob([fs.readFileSync(template)]) } : {});
  await db.exec('CREATE TABLE t (n int)');
}, 120_000);
afterAll(async () => db?.close());

describe('the embedded database thread', () => {
  it('runs a waiting read before the writes queued ahead of it; the read sees what was committed before it ran', async () => {
    const order: string[] = [];
    let sent: Promise<unknown>[] = [];
    let read: Promise<{ rows: { n: number }[] }> | undefined;
    await db.transaction(async (tx) => {
      await tx.query('INSERT INTO t SELECT generate_series(1, 100)');
      sent = [1, 2, 3].map((i) => db.query(`INSERT INTO t VALUES (${i})`).then(() => order.push(`write ${i}`)));
      read = db.query<{ n: number }>('SELECT count(*)::int AS n FROM t').then((r) => {
        order.push('read');
        return r;
      });
      await tx.query('SELECT 1');
    });
    await Promise.all([...sent, read]);
    expect(order).toEqual(['read', 'write 1', 'write 2', 'write 3']);
    expect((await read!).rows[0]!.n).toBe(100);
    expect((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM t')).rows[0]!.n).toBe(103);
  });

  it('lets at most 8 reads in a row overtake a waiting write (writes are never starved)', async () => {
    const order: string[] = [];
    const sent: Promise<unknown>[] = [];
    await db.transaction(async (tx) => {
      await tx.query('SELECT 1');
      sent.push(db.query('INSERT INTO t VALUES (0)').then(() => order.push('write')));
      for (let i = 1; i <= 10; i++) sent.push(db.query('SELECT 1').then(() => order.push(`read ${i}`)));
    });
    await Promise.all(sent);
    expect(order).toEqual(['read 1', 'read 2', 'read 3', 'read 4', 'read 5', 'read 6', 'read 7', 'read 8', 'write', 'read 9', 'read 10']);
  });
});
