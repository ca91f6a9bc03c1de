ALTER TABLE "users" ADD COLUMN "disabled_at" timestamp with time zone;
