CREATE TABLE "donation" (
	"order_id" text PRIMARY KEY NOT NULL,
	"campaign_id" text NOT NULL,
	"trust_id" text NOT NULL,
	"person_id" text,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"mobile" text NOT NULL,
	"pan" text,
	"address" text,
	"indian_passport" boolean NOT NULL,
	"anonymous" boolean DEFAULT false NOT NULL,
	"share_bps" bigint NOT NULL,
	"share" bigint NOT NULL,
	"to_campaign" bigint NOT NULL,
	"financial_year" text,
	"receipt_seq" bigint,
	"receipt_no" text,
	"created_at" bigint NOT NULL,
	"paid_at" bigint,
	CONSTRAINT "donation_receipt_no_unique" UNIQUE("receipt_no")
);
--> statement-breakpoint
ALTER TABLE "donation" ADD CONSTRAINT "donation_order_id_purchase_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."purchase_order"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "donation" ADD CONSTRAINT "donation_campaign_id_campaign_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaign"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "donation" ADD CONSTRAINT "donation_trust_id_trust_id_fk" FOREIGN KEY ("trust_id") REFERENCES "public"."trust"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "donation" ADD CONSTRAINT "donation_person_id_person_id_fk" FOREIGN KEY ("person_id") REFERENCES "public"."person"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "donation_campaign_idx" ON "donation" USING btree ("campaign_id","created_at");--> statement-breakpoint
CREATE INDEX "donation_person_idx" ON "donation" USING btree ("person_id");--> statement-breakpoint
CREATE UNIQUE INDEX "donation_receipt_seq_idx" ON "donation" USING btree ("trust_id","financial_year","receipt_seq");