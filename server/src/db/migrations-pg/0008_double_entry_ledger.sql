-- Hand-written around drizzle-kit's output (docs/charity.md "The ledger"): the single-entry rows
-- become the `gateway` legs of their groups, each with its counter leg; REFUND_DUE notes (amount 0)
-- go, the flagged capture itself becomes the group that owes the payer back.
ALTER TABLE "ledger_entry" ADD COLUMN "group_id" text NOT NULL DEFAULT '';--> statement-breakpoint
ALTER TABLE "ledger_entry" ADD COLUMN "account" text NOT NULL DEFAULT '';--> statement-breakpoint
ALTER TABLE "ledger_entry" ALTER COLUMN "group_id" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "ledger_entry" ALTER COLUMN "account" DROP DEFAULT;--> statement-breakpoint
DELETE FROM "ledger_entry" WHERE "kind" = 'REFUND_DUE';--> statement-breakpoint
UPDATE "ledger_entry" SET "group_id" = "id", "account" = 'gateway', "kind" = CASE WHEN "kind" = 'CAPTURE' AND EXISTS (SELECT 1 FROM "payment" WHERE "payment"."id" = "ledger_entry"."payment_id" AND "payment"."flag" = 'REFUND_DUE') THEN 'REFUND_DUE' ELSE "kind" END;--> statement-breakpoint
INSERT INTO "ledger_entry" ("id", "group_id", "account", "order_id", "payment_id", "kind", "amount", "created_at")
SELECT "id" || ':2', "id",
  CASE WHEN "kind" = 'REFUND_DUE' THEN 'refunds-due'
       WHEN (SELECT "kind" FROM "purchase_order" WHERE "purchase_order"."id" = "ledger_entry"."order_id") = 'DONATION' THEN 'donations:general'
       ELSE 'revenue:plans' END,
  "order_id", "payment_id", "kind", -"amount", "created_at"
FROM "ledger_entry";--> statement-breakpoint
CREATE INDEX "ledger_account_idx" ON "ledger_entry" USING btree ("account","created_at");--> statement-breakpoint
CREATE INDEX "ledger_group_idx" ON "ledger_entry" USING btree ("group_id");
