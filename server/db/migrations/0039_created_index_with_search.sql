-- The list's default ordering index holds search_text too (docs/decisions/0188-list-planned-once-ids-from-the-index.md): a substring search with many matches
-- walks this index along the ordering and reads the page's ids with an index-only scan, testing each entry's
-- search_text in the index; only the page's rows are then read from the table. drizzle's index builder has no
-- INCLUDE: server/db/schema/profiles.ts declares the index's key columns and names this migration.
DROP INDEX IF EXISTS "profiles_company_created";--> statement-breakpoint
CREATE INDEX "profiles_company_created" ON "profiles" USING btree ("company_id","created_at","id") INCLUDE ("search_text");
