-- 0041_store_segment_indexes: a knowledge base's segment index entries (0035) go through the store with
-- it: the snapshot keeps them beside its segments (store_dataset_segments, 0020) and a copy takes them,
-- vectors as they are (the copy keeps the source's embedding model, so they stay valid). They go with
-- their snapshot segment (cascade), so publishing again or deleting the listing removes them.
CREATE TABLE "store_dataset_segment_indexes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"store_item_id" uuid NOT NULL REFERENCES "store_items"("id") ON DELETE cascade,
	"segment_id" uuid NOT NULL REFERENCES "store_dataset_segments"("id") ON DELETE cascade,
	"type" text NOT NULL,
	"source" text DEFAULT 'manual' NOT NULL,
	"content" text NOT NULL,
	"tokens" text DEFAULT '' NOT NULL,
	"embedding" real[],
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "store_dataset_segment_indexes_item" ON "store_dataset_segment_indexes" ("store_item_id");
--> statement-breakpoint
CREATE INDEX "store_dataset_segment_indexes_segment" ON "store_dataset_segment_indexes" ("segment_id");
--> statement-breakpoint
-- The pgvector copy where the live entries have one (0035).
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM information_schema.columns WHERE table_name = 'dataset_segment_indexes' AND column_name = 'embedding_v') THEN
    ALTER TABLE "store_dataset_segment_indexes" ADD COLUMN "embedding_v" vector;
  END IF;
END $$;
