-- Record 0179: the database says whose principal changed, at commit, on the channel `principals_changed`
-- (payload: the user's id, or '*' for every user). A principal is what the access check reads of a user: their
-- company, e-mail, role, flags (active, API user, superuser), the time they were disabled, and the permissions
-- of their groups. NOTIFY is transactional: a rolled-back write says nothing, and a transaction says each
-- payload once. A user's sign-in, status or name (written on every sign-in and status change) says nothing.
CREATE FUNCTION "principals_changed_notify_user"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('principals_changed', OLD.id::text);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "principals_changed_notify_members"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('principals_changed', m.user_id::text) FROM (SELECT DISTINCT user_id FROM changed_rows) m;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "principals_changed_notify_all"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('principals_changed', '*');
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "users_principal_changed" AFTER UPDATE ON "users"
  FOR EACH ROW WHEN (
    OLD.company_id IS DISTINCT FROM NEW.company_id OR OLD.email IS DISTINCT FROM NEW.email
    OR OLD.role IS DISTINCT FROM NEW.role OR OLD.is_active IS DISTINCT FROM NEW.is_active
    OR OLD.is_api_user IS DISTINCT FROM NEW.is_api_user OR OLD.is_superuser IS DISTINCT FROM NEW.is_superuser
    OR OLD.disabled_at IS DISTINCT FROM NEW.disabled_at)
  EXECUTE FUNCTION principals_changed_notify_user();--> statement-breakpoint
CREATE TRIGGER "users_principal_deleted" AFTER DELETE ON "users"
  FOR EACH ROW EXECUTE FUNCTION principals_changed_notify_user();--> statement-breakpoint
CREATE TRIGGER "users_principal_truncated" AFTER TRUNCATE ON "users"
  FOR EACH STATEMENT EXECUTE FUNCTION principals_changed_notify_all();--> statement-breakpoint
CREATE TRIGGER "user_groups_principal_added" AFTER INSERT ON "user_groups"
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION principals_changed_notify_members();--> statement-breakpoint
CREATE TRIGGER "user_groups_principal_moved" AFTER UPDATE ON "user_groups"
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION principals_changed_notify_all();--> statement-breakpoint
CREATE TRIGGER "user_groups_principal_removed" AFTER DELETE ON "user_groups"
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION principals_changed_notify_members();--> statement-breakpoint
CREATE TRIGGER "user_groups_principal_truncated" AFTER TRUNCATE ON "user_groups"
  FOR EACH STATEMENT EXECUTE FUNCTION principals_changed_notify_all();--> statement-breakpoint
CREATE TRIGGER "groups_principal_changed" AFTER UPDATE OF "permissions" ON "groups"
  FOR EACH STATEMENT EXECUTE FUNCTION principals_changed_notify_all();--> statement-breakpoint
CREATE TRIGGER "groups_principal_truncated" AFTER TRUNCATE ON "groups"
  FOR EACH STATEMENT EXECUTE FUNCTION principals_changed_notify_all();
