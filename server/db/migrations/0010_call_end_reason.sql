ALTER TABLE "video_calls" ADD COLUMN "end_reason" text;--> statement-breakpoint
ALTER TABLE "video_calls" ADD COLUMN "status_set_by" integer;
