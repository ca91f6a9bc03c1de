ALTER TABLE "ident_procedures" ADD COLUMN "guided" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "video_calls" ADD COLUMN "outcome_reason" text;
