CREATE TABLE "live_registration" (
	"qsid" text NOT NULL,
	"person_id" text NOT NULL,
	"sms" boolean DEFAULT false NOT NULL,
	"lang" text DEFAULT 'en' NOT NULL,
	"created_at" bigint NOT NULL,
	"rev" bigint NOT NULL,
	CONSTRAINT "live_registration_qsid_person_id_pk" PRIMARY KEY("qsid","person_id")
);
--> statement-breakpoint
CREATE TABLE "live_test" (
	"qsid" text PRIMARY KEY NOT NULL,
	"start_at" bigint NOT NULL,
	"window_ms" bigint NOT NULL,
	"result_at" bigint NOT NULL,
	"key" text NOT NULL,
	"wrapped" json NOT NULL,
	"released" boolean DEFAULT false NOT NULL,
	"results_opened" boolean DEFAULT false NOT NULL,
	"created_by" text,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	"rev" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "live_registration" ADD CONSTRAINT "live_registration_qsid_live_test_qsid_fk" FOREIGN KEY ("qsid") REFERENCES "public"."live_test"("qsid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_registration" ADD CONSTRAINT "live_registration_person_id_person_id_fk" FOREIGN KEY ("person_id") REFERENCES "public"."person"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_test" ADD CONSTRAINT "live_test_qsid_question_set_id_fk" FOREIGN KEY ("qsid") REFERENCES "public"."question_set"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_test" ADD CONSTRAINT "live_test_created_by_person_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."person"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "live_registration_person_idx" ON "live_registration" USING btree ("person_id","rev");--> statement-breakpoint
CREATE INDEX "live_test_start_idx" ON "live_test" USING btree ("released","start_at");--> statement-breakpoint
CREATE INDEX "live_test_result_idx" ON "live_test" USING btree ("results_opened","result_at");