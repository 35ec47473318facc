-- 0017_distribution_portal: app distributions (issue 21), the portal's conversation groups, and what
-- portal runs need on runs, conversations and messages. Hand-written (tables in ../schema-portal.ts,
-- columns in ../schema-runs.ts); statements separated by --> statement-breakpoint
CREATE TABLE "app_distributions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"workspace_id" uuid NOT NULL,
	"app_id" uuid NOT NULL,
	"platform" text NOT NULL,
	"version_id" uuid,
	"state" text DEFAULT 'distributed' NOT NULL,
	"distributed_by" uuid NOT NULL,
	"distributed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"cancelled_by" uuid,
	"cancelled_at" timestamp with time zone,
	"review_state" text,
	"review_reason" text,
	"tool_id" uuid
);
--> statement-breakpoint
ALTER TABLE "app_distributions" ADD CONSTRAINT "app_distributions_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "app_distributions" ADD CONSTRAINT "app_distributions_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "app_distributions" ADD CONSTRAINT "app_distributions_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "app_distributions" ADD CONSTRAINT "app_distributions_version_id_app_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."app_versions"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "app_distributions" ADD CONSTRAINT "app_distributions_tool_id_tools_id_fk" FOREIGN KEY ("tool_id") REFERENCES "public"."tools"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "app_distributions_app_platform" ON "app_distributions" USING btree ("app_id","platform");
--> statement-breakpoint
CREATE INDEX "app_distributions_tenant_platform" ON "app_distributions" USING btree ("tenant_id","platform","state");
--> statement-breakpoint
CREATE INDEX "app_distributions_tool" ON "app_distributions" USING btree ("tool_id");
--> statement-breakpoint
CREATE TABLE "conversation_groups" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "conversation_groups" ADD CONSTRAINT "conversation_groups_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "conversation_groups" ADD CONSTRAINT "conversation_groups_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "conversation_groups_user_name" ON "conversation_groups" USING btree ("user_id",lower("name"));
--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN "version_id" uuid;
--> statement-breakpoint
ALTER TABLE "runs" ADD CONSTRAINT "runs_version_id_app_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."app_versions"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "runs_creator_created" ON "runs" USING btree ("created_by","created_at");
--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "pinned" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "group_id" uuid;
--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "persona" text DEFAULT '' NOT NULL;
--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "version_id" uuid;
--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_group_id_conversation_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."conversation_groups"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_version_id_app_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."app_versions"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "conversations_creator_source_updated" ON "conversations" USING btree ("created_by","source","updated_at");
--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "feedback" text;
--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "citations" jsonb DEFAULT '[]'::jsonb NOT NULL;
