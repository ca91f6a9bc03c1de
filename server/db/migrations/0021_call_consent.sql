ALTER TABLE "video_calls" ADD COLUMN "consent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "video_calls" ADD COLUMN "consent_ip" text;--> statement-breakpoint
ALTER TABLE "video_calls" ADD COLUMN "consent_language" text;--> statement-breakpoint
ALTER TABLE "video_calls" ADD COLUMN "consent_text" text;
