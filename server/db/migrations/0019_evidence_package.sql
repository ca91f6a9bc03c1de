CREATE TABLE "server_keys" (
	"name" text PRIMARY KEY NOT NULL,
	"sealed" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "evidence_retention_days" integer DEFAULT 1826 NOT NULL;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "legal_hold" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "legal_hold_reason" text;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "legal_hold_by" integer;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "legal_hold_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "video_calls" ADD COLUMN "evidence_deleted_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "video_calls_retention" ON "video_calls" USING btree ("company_id",coalesce("call_end_time", "created_at")) WHERE "recording_key" IS NOT NULL AND "evidence_deleted_at" IS NULL;
