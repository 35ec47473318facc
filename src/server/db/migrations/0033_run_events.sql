-- 0033_run_events: the durable log of each run's stream events (issue 34; table in ../schema-runs.ts).
-- Any process can replay a run's stream from it (a client that reconnects elsewhere, Last-Event-ID).
-- No foreign key to runs: the log is written in batches beside the run row, sometimes before it.
CREATE TABLE "run_events" (
	"run_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"event" json NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "run_events_pkey" PRIMARY KEY ("run_id", "seq")
);
--> statement-breakpoint
CREATE INDEX "run_events_created_at_idx" ON "run_events" USING btree ("created_at");
