-- 0025_gbi: GBI, asking questions of databases and spreadsheets (issue 30; tables in ../schema-gbi.ts).
-- Sources of a project space (one of its databases, or a spreadsheet whose rows live in a DuckDB file
-- under the data directory, never here), their tables and columns with business names, descriptions
-- and sample values, and each user's sessions with their questions, SQL, results and answers.
CREATE TABLE "gbi_sources" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"workspace_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"dialect" text NOT NULL,
	"database_id" uuid,
	"file_name" text DEFAULT '' NOT NULL,
	"query_limit" integer DEFAULT 100 NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "gbi_tables" (
	"id" uuid PRIMARY KEY NOT NULL,
	"source_id" uuid NOT NULL,
	"name" text NOT NULL,
	"business_name" text DEFAULT '' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"row_count" integer,
	"position" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "gbi_columns" (
	"id" uuid PRIMARY KEY NOT NULL,
	"table_id" uuid NOT NULL,
	"name" text NOT NULL,
	"data_type" text NOT NULL,
	"business_name" text DEFAULT '' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"sample_values" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"position" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "gbi_sessions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"workspace_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"source_id" uuid,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "gbi_messages" (
	"id" uuid PRIMARY KEY NOT NULL,
	"session_id" uuid NOT NULL,
	"source_id" uuid,
	"question" text NOT NULL,
	"sql" text DEFAULT '' NOT NULL,
	"status" text NOT NULL,
	"answer" text DEFAULT '' NOT NULL,
	"result" jsonb,
	"chart" jsonb,
	"error" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "gbi_sources" ADD CONSTRAINT "gbi_sources_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "gbi_sources" ADD CONSTRAINT "gbi_sources_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "gbi_sources" ADD CONSTRAINT "gbi_sources_database_id_external_databases_id_fk" FOREIGN KEY ("database_id") REFERENCES "public"."external_databases"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "gbi_tables" ADD CONSTRAINT "gbi_tables_source_id_gbi_sources_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."gbi_sources"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "gbi_columns" ADD CONSTRAINT "gbi_columns_table_id_gbi_tables_id_fk" FOREIGN KEY ("table_id") REFERENCES "public"."gbi_tables"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "gbi_sessions" ADD CONSTRAINT "gbi_sessions_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "gbi_sessions" ADD CONSTRAINT "gbi_sessions_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "gbi_sessions" ADD CONSTRAINT "gbi_sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "gbi_sessions" ADD CONSTRAINT "gbi_sessions_source_id_gbi_sources_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."gbi_sources"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "gbi_messages" ADD CONSTRAINT "gbi_messages_session_id_gbi_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."gbi_sessions"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "gbi_messages" ADD CONSTRAINT "gbi_messages_source_id_gbi_sources_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."gbi_sources"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "gbi_sources_ws" ON "gbi_sources" USING btree ("workspace_id","created_at");
--> statement-breakpoint
CREATE UNIQUE INDEX "gbi_sources_ws_database" ON "gbi_sources" USING btree ("workspace_id","database_id");
--> statement-breakpoint
CREATE UNIQUE INDEX "gbi_tables_source_name" ON "gbi_tables" USING btree ("source_id","name");
--> statement-breakpoint
CREATE INDEX "gbi_columns_table" ON "gbi_columns" USING btree ("table_id","position");
--> statement-breakpoint
CREATE INDEX "gbi_sessions_user" ON "gbi_sessions" USING btree ("user_id","workspace_id","updated_at");
--> statement-breakpoint
CREATE INDEX "gbi_messages_session" ON "gbi_messages" USING btree ("session_id","created_at");
