CREATE TABLE "storage_data_keys" (
	"storage_key" text NOT NULL,
	"file_id" text NOT NULL,
	"kek_id" text NOT NULL,
	"wrapped_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"rewrapped_at" timestamp with time zone,
	CONSTRAINT "storage_data_keys_storage_key_file_id_pk" PRIMARY KEY("storage_key","file_id")
);
--> statement-breakpoint
CREATE INDEX "storage_data_keys_kek" ON "storage_data_keys" USING btree ("kek_id","storage_key","file_id");
