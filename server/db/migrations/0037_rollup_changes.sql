-- Record 0173: the database says which companies' report figures changed, at commit, on the channel
-- `rollups_changed` (payload: the company id, or '*' for every company). The dashboard and the call report read
-- only the rollup tables (docs/decisions/0167-call-rollups.md, docs/decisions/0170-dashboard-rollups.md) and the agents' names, so a change of those is a change of
-- the figures. NOTIFY is transactional: a rolled-back write says nothing, and one transaction says each company
-- once.
CREATE FUNCTION "rollups_changed_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('rollups_changed', c.company_id::text) FROM (SELECT DISTINCT company_id FROM changed_rows) c;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "rollups_changed_notify_all"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('rollups_changed', '*');
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "rollups_changed_notify_user"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('rollups_changed', OLD.company_id::text);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "call_rollups_changed_insert" AFTER INSERT ON "call_rollups"
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION rollups_changed_notify();--> statement-breakpoint
CREATE TRIGGER "call_rollups_changed_update" AFTER UPDATE ON "call_rollups"
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION rollups_changed_notify();--> statement-breakpoint
CREATE TRIGGER "call_rollups_changed_delete" AFTER DELETE ON "call_rollups"
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION rollups_changed_notify();--> statement-breakpoint
CREATE TRIGGER "call_rollups_changed_truncate" AFTER TRUNCATE ON "call_rollups"
  FOR EACH STATEMENT EXECUTE FUNCTION rollups_changed_notify_all();--> statement-breakpoint
CREATE TRIGGER "dashboard_rollups_changed_insert" AFTER INSERT ON "dashboard_rollups"
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION rollups_changed_notify();--> statement-breakpoint
CREATE TRIGGER "dashboard_rollups_changed_update" AFTER UPDATE ON "dashboard_rollups"
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION rollups_changed_notify();--> statement-breakpoint
CREATE TRIGGER "dashboard_rollups_changed_delete" AFTER DELETE ON "dashboard_rollups"
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION rollups_changed_notify();--> statement-breakpoint
CREATE TRIGGER "dashboard_rollups_changed_truncate" AFTER TRUNCATE ON "dashboard_rollups"
  FOR EACH STATEMENT EXECUTE FUNCTION rollups_changed_notify_all();--> statement-breakpoint
-- The call report names its agents: a renamed or deleted agent changes it.
CREATE TRIGGER "users_rollups_changed_name" AFTER UPDATE OF "first_name", "last_name" ON "users"
  FOR EACH ROW WHEN (OLD.first_name IS DISTINCT FROM NEW.first_name OR OLD.last_name IS DISTINCT FROM NEW.last_name)
  EXECUTE FUNCTION rollups_changed_notify_user();--> statement-breakpoint
CREATE TRIGGER "users_rollups_changed_delete" AFTER DELETE ON "users"
  FOR EACH ROW EXECUTE FUNCTION rollups_changed_notify_user();
