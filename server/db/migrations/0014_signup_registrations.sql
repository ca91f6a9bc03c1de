ALTER TABLE "signups" DROP CONSTRAINT "signups_email_unique";--> statement-breakpoint
ALTER TABLE "signups" ADD COLUMN "handle_hash" text;--> statement-breakpoint
CREATE UNIQUE INDEX "signups_handle_hash_unique" ON "signups" USING btree ("handle_hash");--> statement-breakpoint
CREATE INDEX "signups_email_idx" ON "signups" USING btree (lower("email"));--> statement-breakpoint
UPDATE "mail_outbox" SET "body" = regexp_replace("body", '\m[0-9]{6}\M', '••••••', 'g') WHERE "body" ~ '\m[0-9]{6}\M';
