-- 0008_knowledge_index: the approximate-nearest-neighbour index of vector search, where pgvector exists
-- (PGlite always; a PostgreSQL server only with the extension: without it retrieval scores `embedding`
-- real[] in the process and there is nothing to index). pgvector indexes fixed-dimension vectors only,
-- so the index covers the built-in embedding's 256-dimension vectors through a cast and a predicate;
-- retrieve.ts writes its query in exactly this form (see HNSW_INDEX there). Other dimensions are
-- searched exactly.
DO $$
BEGIN
  IF to_regtype('vector') IS NOT NULL AND EXISTS (
    SELECT 1 FROM information_schema.columns WHERE table_name = 'dataset_segments' AND column_name = 'embedding_v'
  ) THEN
    EXECUTE 'CREATE INDEX IF NOT EXISTS "dataset_segments_hnsw_256" ON "dataset_segments" USING hnsw ((embedding_v::vector(256)) vector_cosine_ops) WHERE vector_dims(embedding_v) = 256';
  END IF;
END $$;
