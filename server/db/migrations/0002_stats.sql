ALTER TABLE "documents" ADD COLUMN "check_results" text GENERATED ALWAYS AS (coalesce(checks #>> '{document,result}', '') || '|' || coalesce(checks #>> '{fraud,result}', '') || '|' || coalesce(checks #>> '{biometric,result}', '') || '|' || coalesce(checks #>> '{cross,result}', '')) STORED;--> statement-breakpoint
CREATE INDEX "aml_history_created" ON "aml_history" USING btree ("created_at","profile_id");--> statement-breakpoint
CREATE INDEX "documents_company_created" ON "documents" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE INDEX "profiles_company_status_date" ON "profiles" USING btree ("company_id","last_status_date");--> statement-breakpoint
CREATE INDEX "video_calls_company_created" ON "video_calls" USING btree ("company_id","created_at");