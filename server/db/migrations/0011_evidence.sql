ALTER TABLE "video_calls" ADD COLUMN "recording_sha256" text;--> statement-breakpoint
ALTER TABLE "video_calls" ADD COLUMN "join_link" text;--> statement-breakpoint
ALTER TABLE "document_pages" ADD COLUMN "sha256" text;--> statement-breakpoint
CREATE INDEX "video_calls_join_link" ON "video_calls" USING btree ("join_link","status");--> statement-breakpoint
CREATE INDEX "video_calls_recording_key" ON "video_calls" USING btree ("recording_key");--> statement-breakpoint
CREATE INDEX "document_pages_storage_key" ON "document_pages" USING btree ("storage_key");
