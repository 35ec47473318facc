-- 0014_sessions_login_limits: sign-in sessions (one per login: its rotating refresh tokens are one
-- family) and the counters of failed sign-ins, both in the database so that every server process
-- on it agrees.
--
-- auth_sessions: access tokens carry the session id (`sid`) and are refused once the session is
-- revoked (logout, reuse of a rotated refresh token); every refresh token belongs to one.
CREATE TABLE "auth_sessions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "auth_sessions" ADD CONSTRAINT "auth_sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "auth_sessions_user" ON "auth_sessions" USING btree ("user_id");
--> statement-breakpoint
-- Refresh tokens issued before this migration: each becomes a session of its own (its access
-- tokens, which carry no session id, are refused once and the client refreshes).
INSERT INTO "auth_sessions" ("id", "user_id", "revoked_at", "created_at")
	SELECT "id", "user_id", "revoked_at", "created_at" FROM "refresh_tokens";
--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD COLUMN "session_id" uuid;
--> statement-breakpoint
UPDATE "refresh_tokens" SET "session_id" = "id";
--> statement-breakpoint
ALTER TABLE "refresh_tokens" ALTER COLUMN "session_id" SET NOT NULL;
--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD CONSTRAINT "refresh_tokens_session_id_auth_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."auth_sessions"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "refresh_tokens_session" ON "refresh_tokens" USING btree ("session_id");
--> statement-breakpoint
-- login_throttles: failed sign-ins (and wrong old passwords on a password change) per key: an
-- account at one address ('pair:'), an account ('account:'), an address ('address:'). See
-- src/server/security/login-limits.ts for how they count and lock.
CREATE TABLE "login_throttles" (
	"key" text PRIMARY KEY NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"last_failure_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "login_throttles_last_failure" ON "login_throttles" USING btree ("last_failure_at");
