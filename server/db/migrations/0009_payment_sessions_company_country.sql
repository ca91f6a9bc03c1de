CREATE TABLE "payment_notifications" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"session_id" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "country" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "plan_period_start" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "plan_period_end" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "plan_verifications" integer;--> statement-breakpoint
ALTER TABLE "packages" ADD COLUMN "services" jsonb;--> statement-breakpoint
ALTER TABLE "packages" ADD COLUMN "period_days" integer DEFAULT 30 NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "checkout_url" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "created_by" integer;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "receipt_number" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "receipt_url" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "failure_code" text;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_receiptNumber_unique" UNIQUE("receipt_number");