-- Broadcast video renders move onto the job queue (issue 31): their queue and its dead-letter queue,
-- made here as 0043 made the others (at start each would cost a new database a partition table),
-- with the options of src/server/jobs/queues.ts (WEFT_JOBS_LEASE_SECONDS 60; a start updates them
-- when the setting differs).
SELECT pgboss.create_queue('broadcast-dead', '{"policy":"standard","retryLimit":3,"retryDelay":5,"expireInSeconds":60}'::json);
--> statement-breakpoint
SELECT pgboss.create_queue('broadcast-render', '{"policy":"standard","retryLimit":2,"retryDelay":0,"retryBackoff":false,"expireInSeconds":60,"deadLetter":"broadcast-dead"}'::json);
--> statement-breakpoint
-- Renders the old leased queue left queued or running get a job each (a running one starts again).
UPDATE "broadcasts" SET "state" = 'queued', "progress" = 0 WHERE "state" = 'running';
--> statement-breakpoint
INSERT INTO pgboss.job (name, data, retry_limit, retry_delay, retry_backoff, expire_in, dead_letter, policy)
SELECT 'broadcast-render', jsonb_build_object('broadcastId', "id", 'generation', "generation"), 2, 0, false, interval '60 seconds', 'broadcast-dead', 'standard'
FROM "broadcasts" WHERE "state" = 'queued' ORDER BY "created_at";
--> statement-breakpoint
-- The lease lives in the job now.
ALTER TABLE "broadcasts" DROP COLUMN "locked_until";
