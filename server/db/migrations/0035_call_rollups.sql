-- Record 0167: the call figures of each company per UTC day, agent and status, kept exact by triggers on
-- video_calls (every write path, seeds and tests included, in the writing transaction), so the call report
-- and the dashboard read days × agents rows instead of every call.
CREATE TABLE "call_rollups" (
	"company_id" integer NOT NULL,
	"day" date NOT NULL,
	"agent_id" integer,
	"status" integer NOT NULL,
	"calls" integer DEFAULT 0 NOT NULL,
	"answered" integer DEFAULT 0 NOT NULL,
	"handled" integer DEFAULT 0 NOT NULL,
	"handling" interval DEFAULT '0' NOT NULL,
	CONSTRAINT "call_rollups_key" UNIQUE NULLS NOT DISTINCT("company_id","day","agent_id","status")
);--> statement-breakpoint
-- What one call adds to its rollup row: the rules of the report (answered: has a start time; handled: ends
-- at or after its start; handling: end − start of the handled ones). The day is the UTC day of created_at.
CREATE FUNCTION "call_rollup_of"(c "video_calls") RETURNS "call_rollups" LANGUAGE sql IMMUTABLE AS $$
  SELECT c.company_id, (c.created_at AT TIME ZONE 'UTC')::date, c.agent_id, c.status, 1,
         (c.call_start_time IS NOT NULL)::int,
         (c.call_end_time >= c.call_start_time IS TRUE)::int,
         CASE WHEN c.call_end_time >= c.call_start_time THEN c.call_end_time - c.call_start_time
              ELSE interval '0' END
$$;--> statement-breakpoint
-- Takes the removed calls' shares off and adds the added ones', in one upsert per rollup row (row locks taken
-- in key order, so two writers cannot deadlock on the same rows); rows back at zero calls are deleted.
CREATE FUNCTION "call_rollups_merge"(removed "call_rollups"[], added "call_rollups"[]) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  emptied call_rollups[];
BEGIN
  WITH merged AS (
    INSERT INTO call_rollups AS r (company_id, day, agent_id, status, calls, answered, handled, handling)
    SELECT company_id, day, agent_id, status, sum(calls), sum(answered), sum(handled), sum(handling)
      FROM (SELECT * FROM unnest(added)
            UNION ALL
            SELECT company_id, day, agent_id, status, -calls, -answered, -handled, -handling
              FROM unnest(removed)) d
     GROUP BY 1, 2, 3, 4
    HAVING sum(calls) <> 0 OR sum(answered) <> 0 OR sum(handled) <> 0 OR sum(handling) <> interval '0'
     ORDER BY 1, 2, 3, 4
    ON CONFLICT (company_id, day, agent_id, status) DO UPDATE
       SET calls = r.calls + excluded.calls, answered = r.answered + excluded.answered,
           handled = r.handled + excluded.handled, handling = r.handling + excluded.handling
    RETURNING r.*
  )
  SELECT array_agg((m.company_id, m.day, m.agent_id, m.status, m.calls, m.answered, m.handled, m.handling)::call_rollups)
    INTO emptied FROM merged m WHERE m.calls = 0;
  IF emptied IS NOT NULL THEN
    DELETE FROM call_rollups r USING unnest(emptied) e
     WHERE r.company_id = e.company_id AND r.day = e.day AND r.agent_id IS NOT DISTINCT FROM e.agent_id
       AND r.status = e.status AND r.calls = 0;
  END IF;
END $$;--> statement-breakpoint
-- Statement triggers with transition tables: a bulk insert (a seed) costs one merge, not one per row.
CREATE FUNCTION "call_rollups_on_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM call_rollups_merge('{}', array(SELECT call_rollup_of(n) FROM added_calls n));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "call_rollups_on_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM call_rollups_merge(array(SELECT call_rollup_of(o) FROM removed_calls o),
                             array(SELECT call_rollup_of(n) FROM added_calls n));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "call_rollups_on_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM call_rollups_merge(array(SELECT call_rollup_of(o) FROM removed_calls o), '{}');
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "call_rollups_on_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM call_rollups;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "video_calls_rollup_insert" AFTER INSERT ON "video_calls"
  REFERENCING NEW TABLE AS added_calls FOR EACH STATEMENT EXECUTE FUNCTION call_rollups_on_insert();--> statement-breakpoint
CREATE TRIGGER "video_calls_rollup_update" AFTER UPDATE ON "video_calls"
  REFERENCING OLD TABLE AS removed_calls NEW TABLE AS added_calls FOR EACH STATEMENT
  EXECUTE FUNCTION call_rollups_on_update();--> statement-breakpoint
CREATE TRIGGER "video_calls_rollup_delete" AFTER DELETE ON "video_calls"
  REFERENCING OLD TABLE AS removed_calls FOR EACH STATEMENT EXECUTE FUNCTION call_rollups_on_delete();--> statement-breakpoint
CREATE TRIGGER "video_calls_rollup_truncate" AFTER TRUNCATE ON "video_calls"
  FOR EACH STATEMENT EXECUTE FUNCTION call_rollups_on_truncate();--> statement-breakpoint
-- The calls there are already.
SELECT call_rollups_merge('{}', array(SELECT call_rollup_of(v) FROM video_calls v));--> statement-breakpoint
-- Instant statistics (answered today, handling time today): a company's calls by start time.
CREATE INDEX "video_calls_company_started" ON "video_calls" USING btree ("company_id","call_start_time");
