/**
 * The pg-boss queues of Weft's background work, with their options (created at start when missing).
 *
 * - `knowledge-{normal,graphic,faq,index}`: knowledge tasks (dataset_tasks stays their record: states,
 *   progress, logs). Policy `singleton` with the unit as singletonKey: one unit is never processed by
 *   two workers of a type at once. Their consumers take jobs with ./fetch, not pg-boss's fetch (which
 *   gives nothing while the oldest job's unit is busy): busy units are skipped, bases with nothing
 *   running go first, and each consumer keeps a slot for them. A job is retried only when its process stopped (lease expired, or a
 *   clean stop handed it back): a task whose handler fails ends failed, as before. Out of retries, the
 *   job goes to `knowledge-dead`, whose worker fails the task.
 * - `broadcast-render`: digital humans' broadcast video renders (the broadcasts table stays their
 *   record), retried only when their process stopped, like knowledge tasks; out of retries, the job
 *   goes to `broadcast-dead`, whose worker fails the broadcast.
 * - `knowledge-refresh`, `runs-sweep`, `overview-keep`: scheduled passes (cron), policy `short`, so
 *   that several processes starting at once queue one pass, not one each.
 */
import type PgBoss from 'pg-boss';

/** Starts of one knowledge task before it fails: the first and two retries after its process stopped. */
export const KNOWLEDGE_ATTEMPTS = 3;

export const KNOWLEDGE_QUEUES = {
  normal: 'knowledge-normal',
  graphic: 'knowledge-graphic',
  faq: 'knowledge-faq',
  index: 'knowledge-index',
} as const;

/** Starts of one broadcast render before it fails: the first and two retries after its process stopped. */
export const RENDER_ATTEMPTS = 3;
export const RENDER_QUEUE = 'broadcast-render';

type QueueOptions = Omit<PgBoss.Queue, 'name'>;

const knowledge = (o: { leaseSeconds: number }): QueueOptions => ({
  policy: 'singleton',
  retryLimit: KNOWLEDGE_ATTEMPTS - 1,
  retryDelay: 0,
  retryBackoff: false,
  expireInSeconds: o.leaseSeconds,
  deadLetter: 'knowledge-dead',
});
const pass = (): QueueOptions => ({ policy: 'short', retryLimit: 1, retryDelay: 30, expireInSeconds: 15 * 60 });

/** Every queue, dead-letter queues first (the others name them). */
export const JOB_QUEUES = {
  'knowledge-dead': (): QueueOptions => ({ policy: 'standard', retryLimit: 3, retryDelay: 5, expireInSeconds: 60 }),
  [KNOWLEDGE_QUEUES.normal]: knowledge,
  [KNOWLEDGE_QUEUES.graphic]: knowledge,
  [KNOWLEDGE_QUEUES.faq]: knowledge,
  [KNOWLEDGE_QUEUES.index]: knowledge,
  'broadcast-dead': (): QueueOptions => ({ policy: 'standard', retryLimit: 3, retryDelay: 5, expireInSeconds: 60 }),
  // Standard, not singleton: an edit queues the new generation's render while the old one may still
  // run; the old one notices at its next renewal and stops.
  [RENDER_QUEUE]: (o: { leaseSeconds: number }): QueueOptions => ({
    policy: 'standard',
    retryLimit: RENDER_ATTEMPTS - 1,
    retryDelay: 0,
    retryBackoff: false,
    expireInSeconds: o.leaseSeconds,
    deadLetter: 'broadcast-dead',
  }),
  'knowledge-refresh': pass,
  'runs-sweep': pass,
  'overview-keep': pass,
} satisfies Record<string, (o: { leaseSeconds: number }) => QueueOptions>;

export type QueueName = keyof typeof JOB_QUEUES;
