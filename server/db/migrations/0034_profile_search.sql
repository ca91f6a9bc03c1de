-- Profile search served by indexes (docs/decisions/0165-profile-search-by-index.md): a stored, folded text of the searched fields with a trigram
-- index for substrings, a b-tree on its start (the folded name) for 1–2 character prefixes, and a b-tree for exact ID numbers.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
-- Lower case without diacritics, the same on every server: translate() and lower() of plain ASCII are immutable
-- and need no dictionary (unaccent() is only stable). Turkish İ/I/ı/i all become i; ç ğ ş ö ü become c g s o u;
-- combining marks (a decomposed "C" + cedilla) are dropped. The lower() after translate() folds what is left.
CREATE OR REPLACE FUNCTION profile_search_fold(value text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN lower(translate(value, 'ÇçĆćČčĞğĜĝİıÌÍÎÏìíîïŞşŚśŠšȘșÖöÒÓÔÕòóôõØøŐőÜüÙÚÛùúûŮůŰűÀÁÂÃÄÅàáâãäåĂăĄąÈÉÊËèéêëĚěĘęÑñŃńŇňÝýÿŸŽžŹźŻżŁłĹĺĽľŘřŔŕĎďĐđŤťȚț' || U&'\0300\0301\0302\0303\0304\0306\0307\0308\030A\030B\030C\0326\0327\0328', 'ccccccggggiiiiiiiiiissssssssoooooooooooooouuuuuuuuuuuuaaaaaaaaaaaaaaaaeeeeeeeeeeeennnnnnyyyyzzzzzzllllllrrrrddddtttt'));--> statement-breakpoint
-- The searched fields as one text: folded name, e-mail and ID number, then the phone's digits, on lines of their
-- own (a search has no line break, so a match never spans two fields).
CREATE OR REPLACE FUNCTION profile_search_text(name text, email text, id_card_number text, phone text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN coalesce(profile_search_fold(name), '') || E'\n' || coalesce(profile_search_fold(email), '') || E'\n'
    || coalesce(profile_search_fold(id_card_number), '') || E'\n'
    || regexp_replace(coalesce(phone, ''), '[^0-9]', '', 'g');--> statement-breakpoint
-- Stored, so a search compares plain text: folding on the fly costs tens of microseconds a row (translate()
-- walks its list of letters for every character), which the index's recheck would pay for every candidate.
ALTER TABLE "profiles" ADD COLUMN "search_text" text GENERATED ALWAYS AS (profile_search_text("name", "email", "id_card_number", "phone")) STORED;--> statement-breakpoint
-- fastupdate off: PGlite runs no autovacuum, so a pending list would only empty when full (4 MB), and every search
-- would read it through; a profile write updates the index at once instead.
CREATE INDEX "profiles_search_trgm" ON "profiles" USING gin ("search_text" gin_trgm_ops) WITH (fastupdate = off);--> statement-breakpoint
-- search_text starts with the folded name: its first 64 characters serve 1–2 character name prefixes.
CREATE INDEX "profiles_company_search_prefix" ON "profiles" USING btree ("company_id", (left("search_text", 64)) text_pattern_ops);--> statement-breakpoint
CREATE INDEX "profiles_company_id_card" ON "profiles" USING btree ("company_id", "id_card_number");
