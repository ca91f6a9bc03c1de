-- The database says at commit that a company's payment status may have changed, on `principals_changed` with the
-- payload '*': whether a company's users may use its services is part of what they may do, and the payment gate
-- keeps each company's status until told (docs/decisions/0235-payment-status-kept-until-it-changes.md). A status
-- changes rarely (a checkout, a plan's end), so telling everything costs one read per kept principal then.
-- NOTIFY is transactional: a rolled-back write says nothing.
CREATE TRIGGER "companies_payment_status_changed" AFTER UPDATE ON "companies"
  FOR EACH ROW WHEN (OLD.payment_status IS DISTINCT FROM NEW.payment_status)
  EXECUTE FUNCTION principals_changed_notify_all();--> statement-breakpoint
CREATE TRIGGER "companies_payment_status_added_or_removed" AFTER INSERT OR DELETE OR TRUNCATE ON "companies"
  FOR EACH STATEMENT EXECUTE FUNCTION principals_changed_notify_all();
