ALTER TABLE "companies" ADD COLUMN "join_link_retries" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_join_link_retries_range" CHECK ("join_link_retries" BETWEEN 0 AND 5);
