-- 0026_tool_install_method: how each tool came into its project space (spec 3 "install method", issue 33).
-- Existing rows get what can be derived; a custom tool imported from OpenAPI before this reads 'manual'.
ALTER TABLE "tools" ADD COLUMN "install_method" text DEFAULT 'manual' NOT NULL;--> statement-breakpoint
UPDATE "tools" SET "install_method" = CASE
  WHEN "store_origin_id" IS NOT NULL THEN 'store'
  WHEN "type" IN ('mcp', 'workflow', 'plugin') THEN "type"
  ELSE 'manual'
END;
