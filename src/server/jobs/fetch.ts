/**
 * Taking jobs of a keyed queue (policy `singleton`, one active job per singleton key) without
 * head-of-line blocking (issue 34).
 *
 * pg-boss 10's own `fetch` takes the oldest jobs and relies on the queue's unique index (one active job
 * per key) to refuse a second one of a busy key: the UPDATE fails with a unique violation, which its
 * `fetch` swallows and answers as "no job". So a queue whose oldest job belongs to a unit being worked
 * on gives nothing to anyone until that unit's job ends, however many other jobs wait behind it.
 *
 * This fetch (the same state change as pg-boss's: active, started, a retry counted) instead
 * - skips the jobs whose key has an active job (the unique index still guards a race between two
 *   processes: the loser's statement fails and it answers none, to look again on its next turn);
 * - takes first the jobs of a group (a job data field: the knowledge base) with nothing active, then
 *   the oldest: a base with many units queued does not keep the others waiting;
 * - `idleGroupsOnly`: only jobs of a group with nothing active, for the slot a consumer keeps for them
 *   (./boss `consume`), so a long task of one base never delays a short one of another.
 */
import { isUniqueViolation } from '../db/pg-errors';
import type { BossJob } from './boss';
import type { BossDb } from './db-adapter';

/** pg-boss's `includeMetadata` columns, as its own fetch returns them. */
const JOB_COLUMNS = `j.id, j.name, j.data, EXTRACT(epoch FROM j.expire_in) as "expireInSeconds", j.policy, j.state, j.priority,
  j.retry_limit as "retryLimit", j.retry_count as "retryCount", j.retry_delay as "retryDelay", j.retry_backoff as "retryBackoff",
  j.start_after as "startAfter", j.started_on as "startedOn", j.singleton_key as "singletonKey", j.singleton_on as "singletonOn",
  j.expire_in as "expireIn", j.created_on as "createdOn", j.completed_on as "completedOn", j.keep_until as "keepUntil",
  j.dead_letter as "deadLetter", j.output`;

/** An active job of the queue in the same group as the job `q` (jobs without the field: their key is their group). */
const groupActive = (q: string) =>
  `EXISTS (SELECT 1 FROM pgboss.job a WHERE a.name = $1 AND a.state = 'active'
     AND COALESCE(a.data ->> $3, a.singleton_key) = COALESCE(${q}.data ->> $3, ${q}.singleton_key))`;

function fetchSql(idleGroupsOnly: boolean) {
  return `
    WITH next AS (
      SELECT q.id, q.singleton_key
      FROM pgboss.job q
      WHERE q.name = $1 AND q.state < 'active' AND q.start_after < now()
        AND NOT EXISTS (SELECT 1 FROM pgboss.job a WHERE a.name = $1 AND a.state = 'active' AND a.singleton_key = q.singleton_key)
        ${idleGroupsOnly ? `AND NOT ${groupActive('q')}` : ''}
      ORDER BY ${groupActive('q')}, q.priority DESC, q.created_on, q.id
      LIMIT $2
      FOR UPDATE SKIP LOCKED
    ), one_per_key AS (
      SELECT id, row_number() OVER (PARTITION BY COALESCE(singleton_key, id::text)) AS n FROM next
    )
    UPDATE pgboss.job j SET
      state = 'active',
      started_on = now(),
      retry_count = CASE WHEN j.started_on IS NOT NULL THEN j.retry_count + 1 ELSE j.retry_count END
    FROM one_per_key k
    WHERE j.name = $1 AND j.id = k.id AND k.n = 1
    RETURNING ${JOB_COLUMNS}`;
}

/** Takes up to `batchSize` jobs of `queue` as above; `group` names the job data field that groups them. */
export async function fetchKeyed(db: BossDb, queue: string, batchSize: number, group: string, idleGroupsOnly = false): Promise<BossJob[]> {
  try {
    const { rows } = await db.executeSql(fetchSql(idleGroupsOnly), [queue, batchSize, group]);
    return rows as BossJob[];
  } catch (e) {
    // Another process took a job of the same key at the same moment: none this turn.
    if (isUniqueViolation(e)) return [];
    throw e;
  }
}
