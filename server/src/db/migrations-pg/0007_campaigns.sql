CREATE TABLE "campaign" (
	"id" text PRIMARY KEY NOT NULL,
	"beneficiary_id" text,
	"trust_id" text NOT NULL,
	"title_en" text NOT NULL,
	"title_hi" text DEFAULT '' NOT NULL,
	"story_en" text NOT NULL,
	"story_hi" text DEFAULT '' NOT NULL,
	"cause" text NOT NULL,
	"need" json NOT NULL,
	"goal" bigint NOT NULL,
	"ends_at" bigint NOT NULL,
	"status" text DEFAULT 'DRAFT' NOT NULL,
	"reason" text,
	"created_by" text,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	"submitted_at" bigint,
	"approved_at" bigint,
	"approved_by" text
);
--> statement-breakpoint
CREATE TABLE "campaign_event" (
	"id" text PRIMARY KEY NOT NULL,
	"campaign_id" text NOT NULL,
	"action" text NOT NULL,
	"from_status" text,
	"to_status" text NOT NULL,
	"note" text,
	"actor_id" text,
	"actor_name" text,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "campaign_image" (
	"id" text PRIMARY KEY NOT NULL,
	"campaign_id" text NOT NULL,
	"kind" text NOT NULL,
	"update_id" text,
	"position" bigint NOT NULL,
	"url" text NOT NULL,
	"bytes" bigint NOT NULL,
	"width" bigint NOT NULL,
	"height" bigint NOT NULL,
	"created_by" text,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "campaign_update" (
	"id" text PRIMARY KEY NOT NULL,
	"campaign_id" text NOT NULL,
	"author_id" text,
	"author_name" text,
	"text_en" text NOT NULL,
	"text_hi" text DEFAULT '' NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "trust" (
	"id" text PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"name" json NOT NULL,
	"address" text NOT NULL,
	"registration_no" text NOT NULL,
	"pan" text NOT NULL,
	"approval_80g" text NOT NULL,
	"fcra_registered" boolean DEFAULT false NOT NULL,
	"share_bps" bigint DEFAULT 600 NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "trust_code_unique" UNIQUE("code")
);
--> statement-breakpoint
ALTER TABLE "campaign" ADD CONSTRAINT "campaign_beneficiary_id_person_id_fk" FOREIGN KEY ("beneficiary_id") REFERENCES "public"."person"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign" ADD CONSTRAINT "campaign_trust_id_trust_id_fk" FOREIGN KEY ("trust_id") REFERENCES "public"."trust"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign" ADD CONSTRAINT "campaign_created_by_person_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."person"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign" ADD CONSTRAINT "campaign_approved_by_person_id_fk" FOREIGN KEY ("approved_by") REFERENCES "public"."person"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_event" ADD CONSTRAINT "campaign_event_campaign_id_campaign_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaign"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_event" ADD CONSTRAINT "campaign_event_actor_id_person_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."person"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_image" ADD CONSTRAINT "campaign_image_campaign_id_campaign_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaign"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_image" ADD CONSTRAINT "campaign_image_update_id_campaign_update_id_fk" FOREIGN KEY ("update_id") REFERENCES "public"."campaign_update"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_image" ADD CONSTRAINT "campaign_image_created_by_person_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."person"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_update" ADD CONSTRAINT "campaign_update_campaign_id_campaign_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaign"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_update" ADD CONSTRAINT "campaign_update_author_id_person_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."person"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "campaign_status_idx" ON "campaign" USING btree ("status","approved_at");--> statement-breakpoint
CREATE INDEX "campaign_beneficiary_idx" ON "campaign" USING btree ("beneficiary_id");--> statement-breakpoint
CREATE INDEX "campaign_queue_idx" ON "campaign" USING btree ("submitted_at") WHERE "campaign"."status" = 'SUBMITTED';--> statement-breakpoint
CREATE INDEX "campaign_event_campaign_idx" ON "campaign_event" USING btree ("campaign_id","created_at");--> statement-breakpoint
CREATE INDEX "campaign_image_campaign_idx" ON "campaign_image" USING btree ("campaign_id","kind","position");--> statement-breakpoint
CREATE INDEX "campaign_update_campaign_idx" ON "campaign_update" USING btree ("campaign_id","created_at");