-- Enterprise sign-in: each company's OpenID Connect provider (client secret sealed, SCIM token only hashed), the
-- e-mail domains it covers (one company per domain), sign-ins under way, provider identities, SSO sessions and
-- the SCIM ids of users and groups.
CREATE TABLE "sso_connections" (
	"company_id" integer PRIMARY KEY NOT NULL REFERENCES "companies"("id") ON DELETE cascade,
	"enabled" boolean DEFAULT false NOT NULL,
	"issuer" text NOT NULL,
	"client_id" text NOT NULL,
	"client_secret" text,
	"groups_claim" text DEFAULT 'groups' NOT NULL,
	"default_role" text DEFAULT 'Restricted User' NOT NULL,
	"mappings" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"sso_only" boolean DEFAULT false NOT NULL,
	"break_glass_user_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"scim_token_hash" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE UNIQUE INDEX "sso_connections_scim_token" ON "sso_connections" USING btree ("scim_token_hash");--> statement-breakpoint
CREATE TABLE "sso_domains" (
	"domain" text PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL REFERENCES "companies"("id") ON DELETE cascade
);--> statement-breakpoint
CREATE INDEX "sso_domains_company" ON "sso_domains" USING btree ("company_id");--> statement-breakpoint
CREATE TABLE "sso_states" (
	"state_hash" text PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL REFERENCES "companies"("id") ON DELETE cascade,
	"code_verifier" text NOT NULL,
	"nonce" text NOT NULL,
	"email" text NOT NULL,
	"return_to" text,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE TABLE "sso_identities" (
	"user_id" integer NOT NULL REFERENCES "users"("id") ON DELETE cascade,
	"company_id" integer NOT NULL REFERENCES "companies"("id") ON DELETE cascade,
	"issuer" text NOT NULL,
	"subject" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sso_identities_company_id_issuer_subject_pk" PRIMARY KEY("company_id","issuer","subject")
);--> statement-breakpoint
CREATE INDEX "sso_identities_user" ON "sso_identities" USING btree ("user_id");--> statement-breakpoint
CREATE TABLE "sso_sessions" (
	"session_id" text PRIMARY KEY NOT NULL REFERENCES "sessions"("id") ON DELETE cascade,
	"company_id" integer NOT NULL REFERENCES "companies"("id") ON DELETE cascade,
	"id_token" text NOT NULL
);--> statement-breakpoint
CREATE TABLE "scim_users" (
	"user_id" integer PRIMARY KEY NOT NULL REFERENCES "users"("id") ON DELETE cascade,
	"company_id" integer NOT NULL REFERENCES "companies"("id") ON DELETE cascade,
	"external_id" text,
	"deleted_at" timestamp with time zone
);--> statement-breakpoint
CREATE INDEX "scim_users_external" ON "scim_users" USING btree ("company_id","external_id");--> statement-breakpoint
CREATE TABLE "scim_groups" (
	"group_id" integer PRIMARY KEY NOT NULL REFERENCES "groups"("id") ON DELETE cascade,
	"company_id" integer NOT NULL REFERENCES "companies"("id") ON DELETE cascade,
	"external_id" text
);
