CREATE TABLE "grievance" (
	"id" text PRIMARY KEY NOT NULL,
	"number" text NOT NULL,
	"financial_year" text NOT NULL,
	"seq" bigint NOT NULL,
	"subject" text NOT NULL,
	"subject_id" text,
	"title" text NOT NULL,
	"text" text NOT NULL,
	"report_reason" text,
	"contact" text,
	"raiser_id" text,
	"raiser_name" text,
	"owner_id" text,
	"status" text DEFAULT 'OPEN' NOT NULL,
	"due_at" bigint NOT NULL,
	"resolution_note" text,
	"resolved_at" bigint,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "grievance_number_unique" UNIQUE("number")
);
--> statement-breakpoint
CREATE TABLE "grievance_message" (
	"id" text PRIMARY KEY NOT NULL,
	"grievance_id" text NOT NULL,
	"author_id" text,
	"author_name" text,
	"staff" boolean NOT NULL,
	"text" text NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "grievance" ADD CONSTRAINT "grievance_raiser_id_person_id_fk" FOREIGN KEY ("raiser_id") REFERENCES "public"."person"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "grievance" ADD CONSTRAINT "grievance_owner_id_person_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."person"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "grievance_message" ADD CONSTRAINT "grievance_message_grievance_id_grievance_id_fk" FOREIGN KEY ("grievance_id") REFERENCES "public"."grievance"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "grievance_message" ADD CONSTRAINT "grievance_message_author_id_person_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."person"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "grievance_seq_idx" ON "grievance" USING btree ("financial_year","seq");--> statement-breakpoint
CREATE INDEX "grievance_queue_idx" ON "grievance" USING btree ("status","due_at");--> statement-breakpoint
CREATE INDEX "grievance_raiser_idx" ON "grievance" USING btree ("raiser_id","created_at");--> statement-breakpoint
CREATE INDEX "grievance_message_idx" ON "grievance_message" USING btree ("grievance_id","created_at");