-- Reads of a person's data (docs/decisions/0213-access-log-hash-chain.md): one global chain, each row's hash
-- covering the one before, so an altered, removed or inserted row breaks the chain that
-- `npm run access-log:verify` walks. No foreign keys: deleting a company or a profile must not cascade into it.
CREATE TABLE "access_log" (
  "seq" bigint PRIMARY KEY NOT NULL,
  "created_at" timestamp with time zone NOT NULL,
  "company_id" integer NOT NULL,
  "profile_id" integer,
  "actor_id" integer,
  "actor_email" text,
  "ip" text,
  "kind" text NOT NULL,
  "object_type" text NOT NULL,
  "object_id" text NOT NULL,
  "detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
  "prev_hash" text NOT NULL,
  "hash" text NOT NULL
);--> statement-breakpoint
CREATE INDEX "access_log_company_profile" ON "access_log" USING btree ("company_id","profile_id","seq");--> statement-breakpoint
CREATE INDEX "access_log_company_seq" ON "access_log" USING btree ("company_id","seq");--> statement-breakpoint
CREATE INDEX "access_log_created" ON "access_log" USING btree ("created_at");--> statement-breakpoint
-- Where the chain starts once old rows are pruned: the last pruned row's sequence number and hash.
CREATE TABLE "access_log_anchor" (
  "id" integer PRIMARY KEY NOT NULL,
  "seq" bigint NOT NULL,
  "hash" text NOT NULL,
  "pruned_at" timestamp with time zone NOT NULL
);--> statement-breakpoint
-- A guard against a careless write, not the proof (the chain is): no UPDATE ever, and DELETE only by the pruning
-- transaction, which says so with `SET LOCAL idv.access_log_prune = 'on'`.
CREATE FUNCTION "access_log_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND current_setting('idv.access_log_prune', true) = 'on' THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'access_log is append-only';
END $$;--> statement-breakpoint
CREATE TRIGGER "access_log_append_only" BEFORE UPDATE OR DELETE ON "access_log"
  FOR EACH ROW EXECUTE FUNCTION access_log_append_only();--> statement-breakpoint
CREATE TRIGGER "access_log_no_truncate" BEFORE TRUNCATE ON "access_log"
  FOR EACH STATEMENT EXECUTE FUNCTION access_log_append_only();
--> statement-breakpoint
-- Erasures of profiles (docs/decisions/0220-erasure-within-retention.md): who asked, when and why, and what waits
-- for its retention to end (`pending`: [{ object, id, since }], the end being `since` plus the company's evidence
-- retention). The erasure job claims the rows `FOR UPDATE SKIP LOCKED`.
CREATE TABLE "profile_erasures" (
  "profile_id" integer PRIMARY KEY NOT NULL REFERENCES "profiles"("id") ON DELETE CASCADE,
  "company_id" integer NOT NULL REFERENCES "companies"("id") ON DELETE CASCADE,
  "requested_by" integer REFERENCES "users"("id") ON DELETE SET NULL,
  "requested_at" timestamp with time zone NOT NULL,
  "reason" text NOT NULL,
  "pending" jsonb DEFAULT '[]'::jsonb NOT NULL,
  "completed_at" timestamp with time zone
);--> statement-breakpoint
CREATE INDEX "profile_erasures_open" ON "profile_erasures" USING btree ("company_id") WHERE "completed_at" IS NULL;
