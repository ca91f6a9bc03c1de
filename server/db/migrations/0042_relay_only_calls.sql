ALTER TABLE "companies" ADD COLUMN "relay_only_calls" boolean DEFAULT false NOT NULL;
