-- 0021_plugin_store: the plugin store (issue 23). A super admin publishes an INSTALLED plugin package
-- to their tenant's store; the listing is a store_items row of type 'plugin' with no project space
-- (source_workspace_id becomes nullable: packages are server-wide). Each published version keeps the
-- package's bytes, so that installing from the store reads them here and goes through the same checks
-- as an upload, whatever happened to the installed package since. Hand-written (tables in ../schema-store.ts).
ALTER TABLE "store_items" ALTER COLUMN "source_workspace_id" DROP NOT NULL;
--> statement-breakpoint
CREATE TABLE "store_plugin_versions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"store_item_id" uuid NOT NULL,
	"version" text NOT NULL,
	"manifest" jsonb NOT NULL,
	"archive" text NOT NULL,
	"checksum" text NOT NULL,
	"published_by" uuid NOT NULL,
	"published_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "store_plugin_versions" ADD CONSTRAINT "store_plugin_versions_store_item_id_store_items_id_fk" FOREIGN KEY ("store_item_id") REFERENCES "public"."store_items"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "store_plugin_versions_item_version" ON "store_plugin_versions" USING btree ("store_item_id","version");
