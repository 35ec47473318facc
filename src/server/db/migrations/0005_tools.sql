-- 0005_tools: hand-written (tables in ../schema-tools.ts); statements separated by --> statement-breakpoint
SELECT 1;
