-- Keyset paging of the lists (docs/decisions/0164-keyset-lists.md): an index per ordering and filter the screens
-- offer, company first, ending in the id that breaks ties, so a page is a range scan wherever it starts.
DROP INDEX IF EXISTS "profiles_company_status";--> statement-breakpoint
DROP INDEX IF EXISTS "profiles_company_risk";--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "profiles_company_status_created" ON "profiles" USING btree ("company_id","status","created_at","id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "profiles_company_risk_created" ON "profiles" USING btree ("company_id","risk_level","created_at","id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "profiles_company_source_created" ON "profiles" USING btree ("company_id","source","created_at","id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "profiles_company_updated" ON "profiles" USING btree ("company_id","updated_at","id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "profiles_company_id" ON "profiles" USING btree ("company_id","id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "profiles_company_status_changed_key" ON "profiles" USING btree ("company_id",coalesce("last_status_date", 'infinity'::timestamptz),"id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "profiles_company_name_key" ON "profiles" USING btree ("company_id",coalesce("name", ''),"id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "profiles_company_status_key" ON "profiles" USING btree ("company_id",coalesce(array_position(ARRAY['Created','Incomplete','Pending Upload','Pending Review','Pending Approval','Temporarily Approved','Temp. Approval Expired','Approved','Rejected','Blacklisted','Inactive']::text[], "status"), 0),"id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "profiles_company_risk_key" ON "profiles" USING btree ("company_id",coalesce(array_position(ARRAY['Very High','High','Normal','Mid','Low','Unknown']::text[], "risk_level"), 0),"id");--> statement-breakpoint
DROP INDEX IF EXISTS "video_calls_company_created";--> statement-breakpoint
DROP INDEX IF EXISTS "video_calls_company_status";--> statement-breakpoint
DROP INDEX IF EXISTS "video_calls_profile";--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "video_calls_company_created" ON "video_calls" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "video_calls_company_status" ON "video_calls" USING btree ("company_id","status","created_at","id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "video_calls_profile" ON "video_calls" USING btree ("profile_id","created_at","id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "audit_log_company_action" ON "audit_log" USING btree ("company_id","action","created_at","id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "audit_log_company_actor" ON "audit_log" USING btree ("company_id","actor_id","created_at","id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "webhook_logs_company_event" ON "webhook_logs" USING btree ("company_id","event","id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "webhook_logs_company_success" ON "webhook_logs" USING btree ("company_id","success","id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "review_cases_company_due" ON "review_cases" USING btree ("company_id","due_at","id") WHERE "review_cases"."state" <> 'decided';
