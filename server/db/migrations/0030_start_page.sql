ALTER TABLE "users" ADD COLUMN "start_page" text DEFAULT 'customers' NOT NULL;
