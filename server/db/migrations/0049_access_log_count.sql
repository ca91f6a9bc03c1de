-- Identical reads within one second (same reader, address, kind, object and detail) are kept as one row with the
-- number of reads it stands for (docs/decisions/0213-access-log-hash-chain.md). Rows written before stand for one
-- read each, and their hashes, which cover the count only when it is more than one, stay valid.
ALTER TABLE "access_log" ADD COLUMN "count" integer DEFAULT 1 NOT NULL;
