CREATE TABLE "score_dist" (
	"qsid" text PRIMARY KEY NOT NULL,
	"n" bigint NOT NULL,
	"t" json NOT NULL,
	"s" json NOT NULL,
	"at" bigint NOT NULL,
	"rev" bigint NOT NULL,
	"deleted" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
ALTER TABLE "score_dist" ADD CONSTRAINT "score_dist_qsid_question_set_id_fk" FOREIGN KEY ("qsid") REFERENCES "public"."question_set"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "score_dist_rev_idx" ON "score_dist" USING btree ("rev");