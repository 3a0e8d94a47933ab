ALTER TABLE "person" ADD COLUMN "pending_email" text;--> statement-breakpoint
ALTER TABLE "person" ADD COLUMN "terms_version" text;--> statement-breakpoint
ALTER TABLE "person" ADD COLUMN "terms_accepted_at" bigint;