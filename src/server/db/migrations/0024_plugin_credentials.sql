-- 0024_plugin_credentials: tenants' credentials for installed plugins, and the record of each plugin
-- version installed or upgraded to (issue 24). Hand-written (tables in ../schema-plugins.ts).
CREATE TABLE "plugin_credentials" (
	"tenant_id" uuid NOT NULL REFERENCES "tenants"("id") ON DELETE CASCADE,
	"plugin_id" text NOT NULL,
	"values_enc" text NOT NULL,
	"updated_by" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	PRIMARY KEY ("tenant_id", "plugin_id")
);
--> statement-breakpoint
CREATE TABLE "plugin_versions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"plugin_id" text NOT NULL,
	"version" text NOT NULL,
	"checksum" text NOT NULL,
	"action" text NOT NULL,
	"by" text DEFAULT '' NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "plugin_versions_plugin_idx" ON "plugin_versions" ("plugin_id", "at");
--> statement-breakpoint
-- The packages installed before this migration start their history with the version they have now.
INSERT INTO "plugin_versions" ("plugin_id", "version", "checksum", "action", "by", "at")
SELECT "id", "version", "checksum", 'install', "installed_by", "installed_at" FROM "plugin_packages";
