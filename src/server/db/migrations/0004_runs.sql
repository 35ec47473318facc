-- 0004_runs: hand-written (tables in ../schema-runs.ts); statements separated by --> statement-breakpoint
SELECT 1;
