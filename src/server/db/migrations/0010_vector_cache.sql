-- 0010_vector_cache: vector search moves into the process (knowledge/vector-cache.ts), which keeps each
-- searchable unit's vectors, quantised, for as long as the unit's segments stay as they were.
-- `segments_version` is how it knows: every statement that inserts, updates or deletes segments adds
-- 1 to the version of the units it touched (statement triggers over transition tables: one update
-- per statement, not per row). ENABLE ALWAYS: the indexer copies segments with
-- session_replication_role = replica (no foreign-key triggers), and these must fire there too.
ALTER TABLE "dataset_documents" ADD COLUMN "segments_version" bigint DEFAULT 0 NOT NULL;
--> statement-breakpoint
CREATE FUNCTION "dataset_segments_bump_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "dataset_documents" SET "segments_version" = "segments_version" + 1 WHERE "id" IN (SELECT DISTINCT "document_id" FROM "changed");
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "dataset_segments_version_insert" AFTER INSERT ON "dataset_segments" REFERENCING NEW TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "dataset_segments_bump_version"();
--> statement-breakpoint
CREATE TRIGGER "dataset_segments_version_update" AFTER UPDATE ON "dataset_segments" REFERENCING NEW TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "dataset_segments_bump_version"();
--> statement-breakpoint
CREATE TRIGGER "dataset_segments_version_delete" AFTER DELETE ON "dataset_segments" REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "dataset_segments_bump_version"();
--> statement-breakpoint
ALTER TABLE "dataset_segments" ENABLE ALWAYS TRIGGER "dataset_segments_version_insert";
--> statement-breakpoint
ALTER TABLE "dataset_segments" ENABLE ALWAYS TRIGGER "dataset_segments_version_update";
--> statement-breakpoint
ALTER TABLE "dataset_segments" ENABLE ALWAYS TRIGGER "dataset_segments_version_delete";
--> statement-breakpoint
-- On the embedded database (WASM) the HNSW index of 0008 cost 3-5 ms per stored segment to keep up,
-- most of ingestion's time (bench:knowledge: 0.03 MB/s at 131,000 segments), for searches the
-- in-process scan answers faster and exactly. A PostgreSQL server with pgvector keeps it: retrieval
-- uses it when the in-process scan is turned off or a search's vectors outgrow its budget.
DO $$
BEGIN
  IF version() LIKE '%emscripten%' THEN
    DROP INDEX IF EXISTS "dataset_segments_hnsw_256";
  END IF;
END $$;
