-- 0009_segment_hits: segment hit counts move out of dataset_segments into a narrow table of their own.
-- Every hit test and every retrieval adds 1 to the count of the segments it answers. A segment's row
-- is wide (content, tokens, tsv, vector) and the indexer fills its pages, so that update could not
-- stay on the page (no HOT update) and wrote a new row version into every index of the table: the
-- GIN full-text index and, where pgvector exists, the HNSW index, a few ms a row on the embedded
-- database. A row of (segment_id, hit_count) on a page with room updates in place.
CREATE TABLE "dataset_segment_hits" (
	"segment_id" uuid PRIMARY KEY NOT NULL REFERENCES "dataset_segments"("id") ON DELETE cascade,
	"hit_count" integer DEFAULT 0 NOT NULL
) WITH (fillfactor = 70);
--> statement-breakpoint
INSERT INTO "dataset_segment_hits" ("segment_id", "hit_count") SELECT "id", "hit_count" FROM "dataset_segments" WHERE "hit_count" > 0;
--> statement-breakpoint
ALTER TABLE "dataset_segments" DROP COLUMN "hit_count";
