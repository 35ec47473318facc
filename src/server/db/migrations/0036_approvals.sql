-- 0023_approvals: approval flows (issue 33). A tenant setting (approval_settings) makes store
-- submissions and portal distributions go through an approval (approvals) whose every step is kept
-- (approval_steps). A store item under approval has review_state 'in_approval' (text column: no DDL).
-- Hand-written (tables in ../schema-approvals.ts); statements separated by --> statement-breakpoint
CREATE TABLE "approval_settings" (
	"tenant_id" uuid PRIMARY KEY NOT NULL,
	"store" boolean DEFAULT false NOT NULL,
	"portal" boolean DEFAULT false NOT NULL,
	"approvers" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "approval_settings" ADD CONSTRAINT "approval_settings_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE TABLE "approvals" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"workspace_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"target_id" uuid NOT NULL,
	"title" text NOT NULL,
	"detail" jsonb NOT NULL,
	"state" text NOT NULL,
	"approvers" jsonb NOT NULL,
	"submitted_by" uuid NOT NULL,
	"submitted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	"submitter_seen_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "approvals" ADD CONSTRAINT "approvals_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "approvals" ADD CONSTRAINT "approvals_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
-- One open approval per target: two submissions at once cannot both open one.
CREATE UNIQUE INDEX "approvals_open_target" ON "approvals" USING btree ("kind","target_id") WHERE state in ('processing', 'returned');
--> statement-breakpoint
CREATE INDEX "approvals_tenant_state" ON "approvals" USING btree ("tenant_id","state","submitted_at");
--> statement-breakpoint
CREATE INDEX "approvals_submitter" ON "approvals" USING btree ("submitted_by","submitted_at");
--> statement-breakpoint
CREATE INDEX "approvals_target" ON "approvals" USING btree ("kind","target_id","submitted_at");
--> statement-breakpoint
CREATE TABLE "approval_steps" (
	"id" uuid PRIMARY KEY NOT NULL,
	"approval_id" uuid NOT NULL,
	"action" text NOT NULL,
	"from_state" text,
	"to_state" text NOT NULL,
	"actor_id" uuid NOT NULL,
	"comment" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "approval_steps" ADD CONSTRAINT "approval_steps_approval_id_approvals_id_fk" FOREIGN KEY ("approval_id") REFERENCES "public"."approvals"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "approval_steps_approval" ON "approval_steps" USING btree ("approval_id","created_at");
