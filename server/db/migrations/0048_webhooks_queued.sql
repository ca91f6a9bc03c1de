-- The database says at commit that webhook messages were queued, on the channel `webhooks_queued` (payload '*'):
-- the delivery workers of every process wake on it instead of polling (docs/decisions/0227-events-not-polls.md).
-- NOTIFY is transactional: a rolled-back change queues nothing and says nothing; one transaction says it once.
CREATE FUNCTION "webhooks_queued_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM queued_rows) THEN
    PERFORM pg_notify('webhooks_queued', '*');
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "webhook_messages_queued" AFTER INSERT ON "webhook_messages"
  REFERENCING NEW TABLE AS queued_rows FOR EACH STATEMENT EXECUTE FUNCTION webhooks_queued_notify();
