CREATE TABLE "sms_answer" (
	"attempt_id" text PRIMARY KEY NOT NULL,
	"person_id" text NOT NULL,
	"qsid" text NOT NULL,
	"received_at" bigint NOT NULL,
	"provider" text NOT NULL,
	"provider_message_id" text NOT NULL,
	"answers" json NOT NULL,
	"texts_follow" boolean DEFAULT false NOT NULL,
	"stored" boolean DEFAULT false NOT NULL,
	"completed_at" bigint,
	"differed_at" bigint
);
--> statement-breakpoint
ALTER TABLE "sms_answer" ADD CONSTRAINT "sms_answer_person_id_person_id_fk" FOREIGN KEY ("person_id") REFERENCES "public"."person"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sms_answer_person_idx" ON "sms_answer" USING btree ("person_id","received_at");