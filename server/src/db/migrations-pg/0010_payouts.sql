CREATE TABLE "payout_account" (
	"id" text PRIMARY KEY NOT NULL,
	"person_id" text,
	"campaign_id" text,
	"supplier_name" text,
	"kind" text NOT NULL,
	"holder_name" text NOT NULL,
	"ifsc" text,
	"account_number" text,
	"account_last4" text,
	"vpa" text,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"verified_name" text,
	"name_matches" boolean,
	"contact_id" text,
	"fund_account_id" text,
	"created_at" bigint NOT NULL,
	"verified_at" bigint,
	"deleted_at" bigint
);
--> statement-breakpoint
CREATE TABLE "withdrawal" (
	"id" text PRIMARY KEY NOT NULL,
	"campaign_id" text NOT NULL,
	"requester_id" text,
	"requester_name" text NOT NULL,
	"payout_account_id" text NOT NULL,
	"amount" bigint NOT NULL,
	"from_domestic" bigint NOT NULL,
	"from_foreign" bigint NOT NULL,
	"purpose_en" text NOT NULL,
	"purpose_hi" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'REQUESTED' NOT NULL,
	"reason" text,
	"due_at" bigint NOT NULL,
	"attempt" bigint DEFAULT 0 NOT NULL,
	"payout_key" text,
	"payout_id" text,
	"utr" text,
	"failure" text,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	"paid_at" bigint
);
--> statement-breakpoint
CREATE TABLE "withdrawal_approval" (
	"id" text PRIMARY KEY NOT NULL,
	"withdrawal_id" text NOT NULL,
	"approver_id" text NOT NULL,
	"approver_name" text NOT NULL,
	"note" text,
	"accepted_mismatch" boolean DEFAULT false NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "withdrawal_event" (
	"id" text PRIMARY KEY NOT NULL,
	"withdrawal_id" text NOT NULL,
	"action" text NOT NULL,
	"from_status" text,
	"to_status" text NOT NULL,
	"note" text,
	"actor_id" text,
	"actor_name" text,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payout_account" ADD CONSTRAINT "payout_account_person_id_person_id_fk" FOREIGN KEY ("person_id") REFERENCES "public"."person"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_account" ADD CONSTRAINT "payout_account_campaign_id_campaign_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaign"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawal" ADD CONSTRAINT "withdrawal_campaign_id_campaign_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaign"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawal" ADD CONSTRAINT "withdrawal_requester_id_person_id_fk" FOREIGN KEY ("requester_id") REFERENCES "public"."person"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawal" ADD CONSTRAINT "withdrawal_payout_account_id_payout_account_id_fk" FOREIGN KEY ("payout_account_id") REFERENCES "public"."payout_account"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawal_approval" ADD CONSTRAINT "withdrawal_approval_withdrawal_id_withdrawal_id_fk" FOREIGN KEY ("withdrawal_id") REFERENCES "public"."withdrawal"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawal_event" ADD CONSTRAINT "withdrawal_event_withdrawal_id_withdrawal_id_fk" FOREIGN KEY ("withdrawal_id") REFERENCES "public"."withdrawal"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payout_account_person_idx" ON "payout_account" USING btree ("person_id","created_at");--> statement-breakpoint
CREATE INDEX "payout_account_campaign_idx" ON "payout_account" USING btree ("campaign_id");--> statement-breakpoint
CREATE INDEX "withdrawal_campaign_idx" ON "withdrawal" USING btree ("campaign_id","created_at");--> statement-breakpoint
CREATE INDEX "withdrawal_requester_idx" ON "withdrawal" USING btree ("requester_id","created_at");--> statement-breakpoint
CREATE INDEX "withdrawal_status_idx" ON "withdrawal" USING btree ("status","due_at");--> statement-breakpoint
CREATE INDEX "withdrawal_payout_idx" ON "withdrawal" USING btree ("payout_id");--> statement-breakpoint
CREATE UNIQUE INDEX "withdrawal_approval_once_idx" ON "withdrawal_approval" USING btree ("withdrawal_id","approver_id");--> statement-breakpoint
CREATE INDEX "withdrawal_event_withdrawal_idx" ON "withdrawal_event" USING btree ("withdrawal_id","created_at");