-- Record 0170: the dashboard's profile, AML and document figures per company, UTC day and key, kept exact by
-- triggers on profiles, aml_history and documents (every write path, seeds and tests included, in the writing
-- transaction), so GET /bitool reads days × keys rows instead of every profile (the pattern of docs/decisions/0167-call-rollups.md).
-- source: created  — profiles by UTC day of created_at, key = current status;
--         decided  — profiles by UTC day of last_status_date (when set), key = current status;
--         screened — aml_history rows by UTC day of created_at, key = '' (hits and errors beside n);
--         checked  — documents not deleted, by UTC day of created_at, key = check_results.
CREATE TABLE "dashboard_rollups" (
	"company_id" integer NOT NULL,
	"day" date NOT NULL,
	"source" text NOT NULL,
	"key" text NOT NULL,
	"n" integer DEFAULT 0 NOT NULL,
	"hits" integer DEFAULT 0 NOT NULL,
	"errors" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "dashboard_rollups_pkey" PRIMARY KEY("company_id","source","day","key")
);--> statement-breakpoint
-- What one profile adds: one created share, and one decided share once its status has changed. (A VALUES
-- list, not a UNION ALL: PGlite's planner fails on an inlined UNION ALL function joined laterally.)
CREATE FUNCTION "dashboard_profile_shares"(p "profiles") RETURNS SETOF "dashboard_rollups" LANGUAGE sql IMMUTABLE AS $$
  SELECT p.company_id, d.day, d.source, p.status, 1, 0, 0
    FROM (VALUES ('created', (p.created_at AT TIME ZONE 'UTC')::date),
                 ('decided', (p.last_status_date AT TIME ZONE 'UTC')::date)) d(source, day)
   WHERE d.day IS NOT NULL
$$;--> statement-breakpoint
-- What one screening adds to its profile's company (aml_history has no company_id: the callers join profiles).
CREATE FUNCTION "dashboard_screening_share"(a "aml_history", company integer) RETURNS "dashboard_rollups"
LANGUAGE sql IMMUTABLE AS $$
  SELECT company, (a.created_at AT TIME ZONE 'UTC')::date, 'screened', '', 1, (a.status = 'hit')::int,
         (a.status = 'error')::int
$$;--> statement-breakpoint
-- What one document adds: nothing once soft-deleted.
CREATE FUNCTION "dashboard_check_shares"(d "documents") RETURNS SETOF "dashboard_rollups" LANGUAGE sql IMMUTABLE AS $$
  SELECT d.company_id, (d.created_at AT TIME ZONE 'UTC')::date, 'checked', d.check_results, 1, 0, 0
   WHERE d.deleted_at IS NULL
$$;--> statement-breakpoint
-- Takes the removed shares off and adds the added ones, in one upsert per rollup row (row locks taken in key
-- order, so two writers cannot deadlock on the same rows); rows back at zero are deleted (the merge of the call rollups).
CREATE FUNCTION "dashboard_rollups_merge"(removed "dashboard_rollups"[], added "dashboard_rollups"[]) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  emptied dashboard_rollups[];
BEGIN
  WITH merged AS (
    INSERT INTO dashboard_rollups AS r (company_id, day, source, key, n, hits, errors)
    SELECT company_id, day, source, key, sum(n), sum(hits), sum(errors)
      FROM (SELECT * FROM unnest(added)
            UNION ALL
            SELECT company_id, day, source, key, -n, -hits, -errors FROM unnest(removed)) d
     GROUP BY 1, 2, 3, 4
    HAVING sum(n) <> 0 OR sum(hits) <> 0 OR sum(errors) <> 0
     ORDER BY 1, 3, 2, 4
    ON CONFLICT (company_id, source, day, key) DO UPDATE
       SET n = r.n + excluded.n, hits = r.hits + excluded.hits, errors = r.errors + excluded.errors
    RETURNING r.*
  )
  SELECT array_agg((m.company_id, m.day, m.source, m.key, m.n, m.hits, m.errors)::dashboard_rollups)
    INTO emptied FROM merged m WHERE m.n = 0;
  IF emptied IS NOT NULL THEN
    DELETE FROM dashboard_rollups r USING unnest(emptied) e
     WHERE r.company_id = e.company_id AND r.source = e.source AND r.day = e.day AND r.key = e.key AND r.n = 0;
  END IF;
END $$;--> statement-breakpoint
-- profiles. A profile moved to another company (never done by the server) takes its screenings along.
CREATE FUNCTION "dashboard_rollups_on_profiles_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM dashboard_rollups_merge('{}', array(SELECT s FROM added_profiles n, dashboard_profile_shares(n) s));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "dashboard_rollups_on_profiles_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM dashboard_rollups_merge(
    array(SELECT s FROM removed_profiles o, dashboard_profile_shares(o) s
          UNION ALL
          SELECT dashboard_screening_share(a, o.company_id)
            FROM removed_profiles o JOIN added_profiles n ON n.id = o.id AND n.company_id <> o.company_id
            JOIN aml_history a ON a.profile_id = o.id),
    array(SELECT s FROM added_profiles n, dashboard_profile_shares(n) s
          UNION ALL
          SELECT dashboard_screening_share(a, n.company_id)
            FROM removed_profiles o JOIN added_profiles n ON n.id = o.id AND n.company_id <> o.company_id
            JOIN aml_history a ON a.profile_id = n.id));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "dashboard_rollups_on_profiles_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM dashboard_rollups_merge(array(SELECT s FROM removed_profiles o, dashboard_profile_shares(o) s), '{}');
  RETURN NULL;
END $$;--> statement-breakpoint
-- A profile's screenings are deleted by ON DELETE CASCADE after the profile row: by then aml_history's
-- trigger can no longer find their company. So they are taken off here, before each profile row goes, and
-- the cascade's statement finds no profile for them (it counts only screenings whose profile is still there).
CREATE FUNCTION "dashboard_rollups_on_profile_gone"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM aml_history WHERE profile_id = OLD.id) THEN
    PERFORM dashboard_rollups_merge(
      array(SELECT dashboard_screening_share(a, OLD.company_id) FROM aml_history a WHERE a.profile_id = OLD.id),
      '{}');
  END IF;
  RETURN OLD;
END $$;--> statement-breakpoint
CREATE FUNCTION "dashboard_rollups_on_profiles_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM dashboard_rollups WHERE source IN ('created', 'decided');
  RETURN NULL;
END $$;--> statement-breakpoint
-- aml_history: the company is the profile's.
CREATE FUNCTION "dashboard_rollups_on_screenings_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM dashboard_rollups_merge('{}', array(
    SELECT dashboard_screening_share(n, p.company_id) FROM added_screenings n JOIN profiles p ON p.id = n.profile_id));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "dashboard_rollups_on_screenings_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM dashboard_rollups_merge(
    array(SELECT dashboard_screening_share(o, p.company_id)
            FROM removed_screenings o JOIN profiles p ON p.id = o.profile_id),
    array(SELECT dashboard_screening_share(n, p.company_id)
            FROM added_screenings n JOIN profiles p ON p.id = n.profile_id));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "dashboard_rollups_on_screenings_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM dashboard_rollups_merge(array(
    SELECT dashboard_screening_share(o, p.company_id) FROM removed_screenings o JOIN profiles p ON p.id = o.profile_id),
    '{}');
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "dashboard_rollups_on_screenings_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM dashboard_rollups WHERE source = 'screened';
  RETURN NULL;
END $$;--> statement-breakpoint
-- documents.
CREATE FUNCTION "dashboard_rollups_on_documents_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM dashboard_rollups_merge('{}', array(SELECT s FROM added_documents n, dashboard_check_shares(n) s));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "dashboard_rollups_on_documents_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM dashboard_rollups_merge(array(SELECT s FROM removed_documents o, dashboard_check_shares(o) s),
                                  array(SELECT s FROM added_documents n, dashboard_check_shares(n) s));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "dashboard_rollups_on_documents_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM dashboard_rollups_merge(array(SELECT s FROM removed_documents o, dashboard_check_shares(o) s), '{}');
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "dashboard_rollups_on_documents_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM dashboard_rollups WHERE source = 'checked';
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "profiles_dashboard_insert" AFTER INSERT ON "profiles"
  REFERENCING NEW TABLE AS added_profiles FOR EACH STATEMENT
  EXECUTE FUNCTION dashboard_rollups_on_profiles_insert();--> statement-breakpoint
CREATE TRIGGER "profiles_dashboard_update" AFTER UPDATE ON "profiles"
  REFERENCING OLD TABLE AS removed_profiles NEW TABLE AS added_profiles FOR EACH STATEMENT
  EXECUTE FUNCTION dashboard_rollups_on_profiles_update();--> statement-breakpoint
CREATE TRIGGER "profiles_dashboard_delete" AFTER DELETE ON "profiles"
  REFERENCING OLD TABLE AS removed_profiles FOR EACH STATEMENT
  EXECUTE FUNCTION dashboard_rollups_on_profiles_delete();--> statement-breakpoint
CREATE TRIGGER "profiles_dashboard_gone" BEFORE DELETE ON "profiles"
  FOR EACH ROW EXECUTE FUNCTION dashboard_rollups_on_profile_gone();--> statement-breakpoint
CREATE TRIGGER "profiles_dashboard_truncate" AFTER TRUNCATE ON "profiles"
  FOR EACH STATEMENT EXECUTE FUNCTION dashboard_rollups_on_profiles_truncate();--> statement-breakpoint
CREATE TRIGGER "aml_history_dashboard_insert" AFTER INSERT ON "aml_history"
  REFERENCING NEW TABLE AS added_screenings FOR EACH STATEMENT
  EXECUTE FUNCTION dashboard_rollups_on_screenings_insert();--> statement-breakpoint
CREATE TRIGGER "aml_history_dashboard_update" AFTER UPDATE ON "aml_history"
  REFERENCING OLD TABLE AS removed_screenings NEW TABLE AS added_screenings FOR EACH STATEMENT
  EXECUTE FUNCTION dashboard_rollups_on_screenings_update();--> statement-breakpoint
CREATE TRIGGER "aml_history_dashboard_delete" AFTER DELETE ON "aml_history"
  REFERENCING OLD TABLE AS removed_screenings FOR EACH STATEMENT
  EXECUTE FUNCTION dashboard_rollups_on_screenings_delete();--> statement-breakpoint
CREATE TRIGGER "aml_history_dashboard_truncate" AFTER TRUNCATE ON "aml_history"
  FOR EACH STATEMENT EXECUTE FUNCTION dashboard_rollups_on_screenings_truncate();--> statement-breakpoint
CREATE TRIGGER "documents_dashboard_insert" AFTER INSERT ON "documents"
  REFERENCING NEW TABLE AS added_documents FOR EACH STATEMENT
  EXECUTE FUNCTION dashboard_rollups_on_documents_insert();--> statement-breakpoint
CREATE TRIGGER "documents_dashboard_update" AFTER UPDATE ON "documents"
  REFERENCING OLD TABLE AS removed_documents NEW TABLE AS added_documents FOR EACH STATEMENT
  EXECUTE FUNCTION dashboard_rollups_on_documents_update();--> statement-breakpoint
CREATE TRIGGER "documents_dashboard_delete" AFTER DELETE ON "documents"
  REFERENCING OLD TABLE AS removed_documents FOR EACH STATEMENT
  EXECUTE FUNCTION dashboard_rollups_on_documents_delete();--> statement-breakpoint
CREATE TRIGGER "documents_dashboard_truncate" AFTER TRUNCATE ON "documents"
  FOR EACH STATEMENT EXECUTE FUNCTION dashboard_rollups_on_documents_truncate();--> statement-breakpoint
-- The rows there are already (the table is empty: one grouped insert, no merge).
INSERT INTO dashboard_rollups (company_id, day, source, key, n, hits, errors)
SELECT company_id, day, source, key, sum(n), sum(hits), sum(errors)
  FROM (SELECT s.* FROM profiles p, dashboard_profile_shares(p) s
        UNION ALL
        SELECT s.* FROM aml_history a JOIN profiles p ON p.id = a.profile_id,
                        dashboard_screening_share(a, p.company_id) s
        UNION ALL
        SELECT s.* FROM documents d, dashboard_check_shares(d) s) shares
 GROUP BY 1, 2, 3, 4;
