-- 0018_app_api: apps as services (issue 22). API keys of apps and of project spaces (their MCP
-- endpoint), the per-key request counters every server process shares, the spaces' MCP exposure,
-- the public API's end users on runs and conversations, and what the overview reads: its cached
-- days, the end users' last activity, and an index to find a period's p95 without sorting it.
-- Hand-written (tables in ../schema-api.ts, columns and the index in ../schema-runs.ts);
-- statements separated by --> statement-breakpoint
CREATE TABLE "api_keys" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"workspace_id" uuid NOT NULL,
	"app_id" uuid,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"secret_hash" text NOT NULL,
	"last4" text NOT NULL,
	"rate_limit_per_minute" integer,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"revoked_by" uuid
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "api_keys_prefix" ON "api_keys" USING btree ("prefix");
--> statement-breakpoint
CREATE INDEX "api_keys_app_created" ON "api_keys" USING btree ("app_id","created_at");
--> statement-breakpoint
CREATE INDEX "api_keys_workspace_created" ON "api_keys" USING btree ("workspace_id","created_at");
--> statement-breakpoint
CREATE TABLE "api_rate_counters" (
	"key_id" uuid NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "api_rate_counters_key_id_window_start_pk" PRIMARY KEY("key_id","window_start")
);
--> statement-breakpoint
CREATE INDEX "api_rate_counters_window" ON "api_rate_counters" USING btree ("window_start");
--> statement-breakpoint
CREATE TABLE "mcp_exposures" (
	"workspace_id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"app_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"updated_by" uuid NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mcp_exposures" ADD CONSTRAINT "mcp_exposures_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "mcp_exposures" ADD CONSTRAINT "mcp_exposures_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN "end_user" text;
--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "end_user" text;
--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "history_hash" text;
--> statement-breakpoint
CREATE INDEX "conversations_app_history" ON "conversations" USING btree ("app_id","history_hash");
--> statement-breakpoint
-- The overview's p95 of a period: read from the slowest end of this index, skipping 5% of the
-- period's runs, instead of sorting all of them (an index-only scan with the filter's columns).
CREATE INDEX "runs_app_elapsed" ON "runs" USING btree ("app_id","elapsed_ms" DESC) INCLUDE ("created_at","status","source");
--> statement-breakpoint
CREATE TABLE "app_overview_days" (
	"app_id" uuid NOT NULL,
	"tz" text NOT NULL,
	"day" date NOT NULL,
	"runs" integer NOT NULL,
	"conversations" integer NOT NULL,
	"messages" integer NOT NULL,
	"active_users" integer NOT NULL,
	"tokens" bigint NOT NULL,
	"finished" integer NOT NULL,
	"latency_sum_ms" double precision NOT NULL,
	"p95_latency_ms" double precision NOT NULL,
	"failed" integer NOT NULL,
	CONSTRAINT "app_overview_days_app_id_tz_day_pk" PRIMARY KEY("app_id","tz","day")
);
--> statement-breakpoint
ALTER TABLE "app_overview_days" ADD CONSTRAINT "app_overview_days_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE TABLE "app_end_users" (
	"app_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"last_seen" timestamp with time zone NOT NULL,
	CONSTRAINT "app_end_users_app_id_user_id_pk" PRIMARY KEY("app_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "app_end_users" ADD CONSTRAINT "app_end_users_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "app_end_users_app_seen" ON "app_end_users" USING btree ("app_id","last_seen");
