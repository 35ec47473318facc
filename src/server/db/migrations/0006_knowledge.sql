-- 0006_knowledge: hand-written (tables in ../schema-knowledge.ts); statements separated by --> statement-breakpoint
SELECT 1;
