-- The list's other orderings read their ids from the index alone too (docs/decisions/0193-list-ids-from-the-index-at-any-offset.md), as 0039 does for the default
-- ordering: a page at an offset skips index entries instead of table rows, and a substring search with many matches
-- ordered by name tests each entry's search_text in the index. PostgreSQL reads an expression index (coalesce(name,
-- ''), the status's position, …) only-index only when the expression's columns are in it as well: each index
-- includes its ordering's column. drizzle's index builder has no INCLUDE: server/db/schema/profiles.ts declares
-- the key columns and names this migration.
DROP INDEX IF EXISTS "profiles_company_name_key";--> statement-breakpoint
CREATE INDEX "profiles_company_name_key" ON "profiles" USING btree ("company_id",coalesce("name", ''),"id") INCLUDE ("name","search_text");--> statement-breakpoint
DROP INDEX IF EXISTS "profiles_company_status_changed_key";--> statement-breakpoint
CREATE INDEX "profiles_company_status_changed_key" ON "profiles" USING btree ("company_id",coalesce("last_status_date", 'infinity'::timestamptz),"id") INCLUDE ("last_status_date");--> statement-breakpoint
DROP INDEX IF EXISTS "profiles_company_status_key";--> statement-breakpoint
CREATE INDEX "profiles_company_status_key" ON "profiles" USING btree ("company_id",coalesce(array_position(ARRAY['Created','Incomplete','Pending Upload','Pending Review','Pending Approval','Temporarily Approved','Temp. Approval Expired','Approved','Rejected','Blacklisted','Inactive']::text[], "status"), 0),"id") INCLUDE ("status");--> statement-breakpoint
DROP INDEX IF EXISTS "profiles_company_risk_key";--> statement-breakpoint
CREATE INDEX "profiles_company_risk_key" ON "profiles" USING btree ("company_id",coalesce(array_position(ARRAY['Very High','High','Normal','Mid','Low','Unknown']::text[], "risk_level"), 0),"id") INCLUDE ("risk_level");
