CREATE TABLE "sms_inbound" (
	"provider" text NOT NULL,
	"provider_message_id" text NOT NULL,
	"sender" text NOT NULL,
	"received_at" bigint NOT NULL,
	"handled" boolean DEFAULT false NOT NULL,
	CONSTRAINT "sms_inbound_provider_provider_message_id_pk" PRIMARY KEY("provider","provider_message_id")
);
--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "provider" text;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "provider_message_id" text;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "delivery_state" text;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "delivered_at" bigint;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "person_id" text;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "kind" text;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "lang" text;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "pending_secret" text;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "fallback_at" bigint;--> statement-breakpoint
CREATE INDEX "outbox_provider_message_idx" ON "outbox" USING btree ("provider","provider_message_id");--> statement-breakpoint
CREATE INDEX "outbox_fallback_idx" ON "outbox" USING btree ("created_at") WHERE "outbox"."pending_secret" is not null;