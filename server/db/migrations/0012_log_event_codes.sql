-- Logs are event codes with parameters (contract/logEvents.ts), no English sentences;
-- check lists and questionnaires get Turkish texts.
ALTER TABLE "checklist_groups" ADD COLUMN "name_tr" text;--> statement-breakpoint
ALTER TABLE "checklist_questions" ADD COLUMN "question_tr" text;--> statement-breakpoint
ALTER TABLE "questionnaire_questions" ADD COLUMN "title_tr" text;--> statement-breakpoint
-- The demo data's texts (server/db/seed/demo.ts) in Turkish; a company's own texts stay English until set.
UPDATE "checklist_groups" AS g SET "name_tr" = t.tr FROM (VALUES
	('Identity', 'Kimlik'),
	('Address', 'Adres')
) AS t(en, tr) WHERE g."name" = t.en;--> statement-breakpoint
UPDATE "checklist_questions" AS q SET "question_tr" = t.tr FROM (VALUES
	('Does the photo match the selfie?', 'Fotoğraf özçekimle eşleşiyor mu?'),
	('Is the document valid and not expired?', 'Belge geçerli ve süresi dolmamış mı?'),
	('Do the name and birth date match the profile?', 'Ad ve doğum tarihi profille eşleşiyor mu?'),
	('Is the utility bill younger than 3 months?', 'Fatura 3 aydan yeni mi?'),
	('Does the address match the profile?', 'Adres profille eşleşiyor mu?')
) AS t(en, tr) WHERE q."question" = t.en;--> statement-breakpoint
UPDATE "questionnaire_questions" AS q SET "title_tr" = t.tr FROM (VALUES
	('What is the purpose of your account?', 'Hesabınızın amacı nedir?'),
	('What is your employment status?', 'Çalışma durumunuz nedir?'),
	('What is your expected monthly volume?', 'Beklediğiniz aylık işlem hacmi nedir?'),
	('Which products are you interested in?', 'Hangi ürünlerle ilgileniyorsunuz?'),
	('What is the source of your funds?', 'Fonlarınızın kaynağı nedir?'),
	('Do you hold a public office?', 'Bir kamu görevinde bulunuyor musunuz?'),
	('Which countries will you send money to?', 'Hangi ülkelere para göndereceksiniz?'),
	('How did you hear about us?', 'Bizi nereden duydunuz?'),
	('Will you act on behalf of a third party?', 'Üçüncü bir kişi adına mı işlem yapacaksınız?'),
	('Which channels do you prefer for contact?', 'İletişim için hangi kanalları tercih edersiniz?')
) AS t(en, tr) WHERE q."title" = t.en;--> statement-breakpoint
UPDATE "questionnaire_questions" SET "answers" = (
	SELECT coalesce(jsonb_agg(CASE WHEN o->>'text' ~ '^Option [0-9]+$'
		THEN o || jsonb_build_object('text_tr', 'Seçenek ' || substring(o->>'text' from '[0-9]+$'))
		ELSE o END ORDER BY n), '[]'::jsonb)
	FROM jsonb_array_elements("answers") WITH ORDINALITY AS a(o, n)
);--> statement-breakpoint
-- Profile logs: the codes written before the catalogue get their new names and the parameters their
-- sentence carried (read back from the sentence or the row it names).
UPDATE "profile_logs" SET "action" = CASE "action"
	WHEN 'videocall.status' THEN 'call_status_set'
	WHEN 'videocall.recording' THEN 'call_recording_stored'
	WHEN 'videocall.video_deleted' THEN 'video_deleted'
	WHEN 'profile.created' THEN 'profile_created'
	ELSE "action" END;--> statement-breakpoint
UPDATE "profile_logs" SET "data" = "data" || jsonb_build_object('document_class', substring("message" from '^Document ([A-Z]{2}) #'))
WHERE "action" LIKE 'document\_%' AND "message" ~ '^Document [A-Z]{2} #';--> statement-breakpoint
UPDATE "profile_logs" SET "data" = "data" || jsonb_build_object('type', substring("message" from ' type changed to (.*)$'))
WHERE "action" = 'document_type_changed' AND "message" ~ ' type changed to ';--> statement-breakpoint
UPDATE "profile_logs" AS l SET "data" = l."data" || jsonb_build_object(
	'name', substring(l."message" from '^Alert (.*) overridden: '),
	'alert', coalesce(
		(SELECT a."code" FROM "document_alerts" AS a WHERE a."id" = (l."data"->>'alert_id')::integer),
		substring(l."message" from '^Alert (.*) overridden: ')))
WHERE l."action" = 'alert_overridden' AND l."message" ~ '^Alert .* overridden: ' AND l."data" ? 'alert_id';--> statement-breakpoint
UPDATE "profile_logs" AS l SET "data" = l."data" || jsonb_build_object('text', jsonb_build_object(
	'en-US', q."question", 'tr', coalesce(q."question_tr", q."question")))
FROM "checklist_questions" AS q
WHERE l."action" = 'checklist_answered' AND q."id" = (l."data"->>'question')::integer;--> statement-breakpoint
UPDATE "profile_logs" SET "data" = "data" || jsonb_build_object('lists', CASE
	WHEN "message" ~ ' on .+$' THEN to_jsonb(string_to_array(substring("message" from ' on (.+)$'), ', '))
	ELSE '[]'::jsonb END)
WHERE "action" = 'aml_checked';--> statement-breakpoint
-- What could not be read back stays readable as it was written: `legacy_text` with the sentence.
UPDATE "profile_logs" SET "action" = 'legacy_text', "data" = jsonb_build_object('text', "message")
WHERE NOT CASE "action"
	WHEN 'profile_created' THEN true
	WHEN 'profile_updated' THEN "data" ?& array['fields']
	WHEN 'status_changed' THEN "data" ?& array['from', 'to']
	WHEN 'note_added' THEN "data" ?& array['kind']
	WHEN 'checklist_answered' THEN "data" ?& array['question', 'text', 'value']
	WHEN 'document_uploaded' THEN "data" ?& array['document_id', 'document_class', 'pages', 'upload_source']
	WHEN 'document_approved' THEN "data" ?& array['document_id', 'document_class']
	WHEN 'document_rejected' THEN "data" ?& array['document_id', 'document_class']
	WHEN 'document_archived' THEN "data" ?& array['document_id', 'document_class']
	WHEN 'document_restored' THEN "data" ?& array['document_id', 'document_class']
	WHEN 'document_deleted' THEN "data" ?& array['document_id', 'document_class']
	WHEN 'document_fields_overridden' THEN "data" ?& array['document_id', 'document_class', 'fields']
	WHEN 'document_type_changed' THEN "data" ?& array['document_id', 'document_class', 'to', 'type']
	WHEN 'alert_overridden' THEN "data" ?& array['alert_id', 'document_id', 'alert', 'name', 'reason']
	WHEN 'aml_checked' THEN "data" ?& array['check_id', 'status', 'matches', 'score', 'database', 'lists']
	WHEN 'aml_approved' THEN "data" ?& array['matches']
	WHEN 'call_status_set' THEN "data" ?& array['call', 'status']
	WHEN 'call_recording_stored' THEN "data" ?& array['call', 'size']
	WHEN 'video_deleted' THEN "data" ?& array['call']
	ELSE false END;--> statement-breakpoint
ALTER TABLE "profile_logs" DROP COLUMN "message";
