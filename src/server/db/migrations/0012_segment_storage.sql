-- 0012_segment_storage: a segment row is kept whole in the table's pages up to 8,160 bytes. With
-- PostgreSQL's default (toast_tuple_target 2,032 bytes) a row of a short segment (content, tokens,
-- tsvector and a 256-dimension vector: about 2.5 kB) went to TOAST: compression tried on its
-- tsvector and text, then the vector moved out of line into the TOAST table and its index. That
-- was about a fifth of the indexer's COPY on the embedded database (WASM), and every read of the
-- vectors (vector-cache.ts) fetched them back from TOAST. Longer rows are still toasted.
ALTER TABLE "dataset_segments" SET (toast_tuple_target = 8160);
--> statement-breakpoint
ALTER TABLE "dataset_qa_pairs" SET (toast_tuple_target = 8160);
