-- 0020_stores: the stores (issue 23). A store item is a published snapshot of an app, knowledge base,
-- prompt or tool of a project space, reviewed by a store manager and listed tenant-wide once released.
-- An app's store submission IS its `store` distribution (one record: the item names it by
-- distribution_id), so the distribution's own review columns go: the item holds the review.
-- A knowledge base's snapshot keeps its documents and segments (with tokens, tsvector and vectors) in
-- store_dataset_documents / store_dataset_segments, copied by INSERT ... SELECT at publish time and
-- again into the target at copy time (no re-embedding). Copies record their origin (store_origin_id).
-- Hand-written (tables in ../schema-store.ts); statements separated by --> statement-breakpoint
CREATE TABLE "store_items" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"type" text NOT NULL,
	"source_id" uuid NOT NULL,
	"source_workspace_id" uuid NOT NULL,
	"distribution_id" uuid,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"icon" jsonb,
	"tags" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"kind" text,
	"version" text,
	"snapshot" jsonb NOT NULL,
	"stats" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"review_state" text DEFAULT 'awaiting_release' NOT NULL,
	"review_reason" text,
	"copy_count" integer DEFAULT 0 NOT NULL,
	"published_by" uuid NOT NULL,
	"published_at" timestamp with time zone DEFAULT now() NOT NULL,
	"reviewed_by" uuid,
	"reviewed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "store_items" ADD CONSTRAINT "store_items_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "store_items" ADD CONSTRAINT "store_items_source_workspace_id_workspaces_id_fk" FOREIGN KEY ("source_workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "store_items" ADD CONSTRAINT "store_items_distribution_id_app_distributions_id_fk" FOREIGN KEY ("distribution_id") REFERENCES "public"."app_distributions"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "store_items_type_source" ON "store_items" USING btree ("type","source_id");
--> statement-breakpoint
CREATE INDEX "store_items_tenant_type_state" ON "store_items" USING btree ("tenant_id","type","review_state","published_at");
--> statement-breakpoint
CREATE TABLE "store_dataset_documents" (
	"id" uuid PRIMARY KEY NOT NULL,
	"store_item_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"name" text NOT NULL,
	"file_type" text NOT NULL,
	"size" integer DEFAULT 0 NOT NULL,
	"char_count" integer DEFAULT 0 NOT NULL,
	"process_rule" jsonb NOT NULL,
	"segment_mode" text DEFAULT 'general' NOT NULL,
	"sheet" text,
	"header_row" integer,
	"enabled" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
ALTER TABLE "store_dataset_documents" ADD CONSTRAINT "store_dataset_documents_store_item_id_store_items_id_fk" FOREIGN KEY ("store_item_id") REFERENCES "public"."store_items"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "store_dataset_documents_item" ON "store_dataset_documents" USING btree ("store_item_id","position");
--> statement-breakpoint
CREATE TABLE "store_dataset_segments" (
	"id" uuid PRIMARY KEY NOT NULL,
	"store_item_id" uuid NOT NULL,
	"document_id" uuid NOT NULL,
	"parent_id" uuid,
	"kind" text DEFAULT 'chunk' NOT NULL,
	"position" integer NOT NULL,
	"content" text NOT NULL,
	"tokens" text DEFAULT '' NOT NULL,
	"tsv" tsvector,
	"embedding" real[],
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
ALTER TABLE "store_dataset_segments" ADD CONSTRAINT "store_dataset_segments_store_item_id_store_items_id_fk" FOREIGN KEY ("store_item_id") REFERENCES "public"."store_items"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "store_dataset_segments" ADD CONSTRAINT "store_dataset_segments_document_id_store_dataset_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."store_dataset_documents"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "store_dataset_segments_doc_pos" ON "store_dataset_segments" USING btree ("document_id","position");
--> statement-breakpoint
CREATE INDEX "store_dataset_segments_item" ON "store_dataset_segments" USING btree ("store_item_id");
--> statement-breakpoint
-- The snapshot keeps the pgvector copy where the live segments have one (0006_knowledge).
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM information_schema.columns WHERE table_name = 'dataset_segments' AND column_name = 'embedding_v') THEN
    ALTER TABLE "store_dataset_segments" ADD COLUMN "embedding_v" vector;
  END IF;
END $$;
--> statement-breakpoint
ALTER TABLE "apps" ADD COLUMN "store_origin_id" uuid;
--> statement-breakpoint
ALTER TABLE "datasets" ADD COLUMN "store_origin_id" uuid;
--> statement-breakpoint
ALTER TABLE "prompts" ADD COLUMN "store_origin_id" uuid;
--> statement-breakpoint
ALTER TABLE "tools" ADD COLUMN "store_origin_id" uuid;
--> statement-breakpoint
ALTER TABLE "app_distributions" DROP COLUMN "review_state";
--> statement-breakpoint
ALTER TABLE "app_distributions" DROP COLUMN "review_reason";
