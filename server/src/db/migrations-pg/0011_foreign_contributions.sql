ALTER TABLE "donation" ADD COLUMN "country" text;--> statement-breakpoint
ALTER TABLE "trust" ADD COLUMN "fc_share_cap_bps" bigint DEFAULT 2000 NOT NULL;