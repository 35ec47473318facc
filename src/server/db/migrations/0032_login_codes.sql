-- 0032_login_codes: verification-code sign-in by phone (SMS) or email (issue 29; table in ../schema-login-codes.ts).
-- One row per code sent (or, for a phone or email no user has, per code pretended to be sent: the
-- answers are the same, so the form does not tell who has an account; user_id is then null and the
-- row can never sign in). The code itself is never stored: code_hash is an HMAC under a server key.
-- A code expires (expires_at), signs in once (used_at) and allows a few wrong tries (attempts).
CREATE TABLE "login_codes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"user_id" uuid,
	"channel" text NOT NULL,
	"target" text NOT NULL,
	"purpose" text DEFAULT 'login' NOT NULL,
	"code_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "login_codes" ADD CONSTRAINT "login_codes_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "login_codes" ADD CONSTRAINT "login_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "login_codes_target" ON "login_codes" USING btree ("channel","target","created_at");
--> statement-breakpoint
CREATE INDEX "login_codes_expires" ON "login_codes" USING btree ("expires_at");
