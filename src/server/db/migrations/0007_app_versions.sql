-- 0007_app_versions: hand-written (table in ../schema-apps.ts); statements separated by --> statement-breakpoint
CREATE TABLE "app_versions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"workspace_id" uuid NOT NULL,
	"app_id" uuid NOT NULL,
	"version" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"document" jsonb NOT NULL,
	"secret_env" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"draft_revision" integer NOT NULL,
	"draft_hash" text NOT NULL,
	"draft_updated_at" timestamp with time zone NOT NULL,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "app_versions" ADD CONSTRAINT "app_versions_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "app_versions" ADD CONSTRAINT "app_versions_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "app_versions" ADD CONSTRAINT "app_versions_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "app_versions_app_version" ON "app_versions" USING btree ("app_id",lower("version"));
--> statement-breakpoint
CREATE INDEX "app_versions_app_created" ON "app_versions" USING btree ("app_id","created_at");
