-- 0019_plugin_packages: installed plugin packages (issue 24), server-wide. The archive is kept in the
-- database so that every server process on it loads the same bytes (each unpacks it into its own data
-- directory, checksum verified). Hand-written (table in ../schema-plugins.ts).
CREATE TABLE "plugin_packages" (
	"id" text PRIMARY KEY NOT NULL,
	"version" text NOT NULL,
	"manifest" jsonb NOT NULL,
	"archive" text NOT NULL,
	"checksum" text NOT NULL,
	"installed_by" text DEFAULT '' NOT NULL,
	"installed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
