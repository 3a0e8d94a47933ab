CREATE TABLE "activity_log" (
	"id" text PRIMARY KEY NOT NULL,
	"created_at" bigint NOT NULL,
	"action_type" text NOT NULL,
	"person_id" text,
	"person_name" text,
	"entity_affected" text NOT NULL,
	"entity_id" text NOT NULL,
	"old_value" json,
	"new_value" json
);
--> statement-breakpoint
CREATE TABLE "attempt" (
	"id" text PRIMARY KEY NOT NULL,
	"person_id" text NOT NULL,
	"qsid" text NOT NULL,
	"st" bigint NOT NULL,
	"server_first_seen" bigint NOT NULL,
	"lsq" text,
	"idx" bigint DEFAULT 0 NOT NULL,
	"selected_section" text,
	"answers" json NOT NULL,
	"status" text DEFAULT 'IN_PROGRESS' NOT NULL,
	"submitted_at" bigint,
	"elapsed" bigint,
	"receipt" text,
	"updated_at" bigint NOT NULL,
	"rev" bigint NOT NULL,
	"deleted" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "banner" (
	"id" text PRIMARY KEY NOT NULL,
	"src" text NOT NULL,
	"headline" json NOT NULL,
	"text" json NOT NULL,
	"call_to_action_text" json NOT NULL,
	"link_to_action" text NOT NULL,
	"type" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"sort_order" bigint DEFAULT 0 NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "brand" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"logo" text,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "brand_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "contact_message" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"email" text,
	"mobile" text NOT NULL,
	"description" text NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "entitlement" (
	"id" text PRIMARY KEY NOT NULL,
	"person_id" text NOT NULL,
	"order_id" text NOT NULL,
	"plan_code" text NOT NULL,
	"starts_at" bigint NOT NULL,
	"ends_at" bigint NOT NULL,
	"mock_limit" bigint,
	"practice_limit" bigint,
	"created_at" bigint NOT NULL,
	CONSTRAINT "entitlement_order_id_unique" UNIQUE("order_id")
);
--> statement-breakpoint
CREATE TABLE "entitlement_state" (
	"person_id" text PRIMARY KEY NOT NULL,
	"rev" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "entitlement_use" (
	"attempt_id" text PRIMARY KEY NOT NULL,
	"person_id" text NOT NULL,
	"qsid" text NOT NULL,
	"kind" text NOT NULL,
	"entitlement_id" text,
	"over_limit" boolean DEFAULT false NOT NULL,
	"started_at" bigint NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "exam_result" (
	"id" text PRIMARY KEY NOT NULL,
	"person_id" text NOT NULL,
	"qsid" text NOT NULL,
	"attempt_id" text NOT NULL,
	"marks" json NOT NULL,
	"out_of" json DEFAULT '{}' NOT NULL,
	"user_res" json NOT NULL,
	"total_marks" double precision NOT NULL,
	"total" double precision DEFAULT 0 NOT NULL,
	"late" boolean DEFAULT false NOT NULL,
	"practice" boolean DEFAULT false NOT NULL,
	"set_version" bigint DEFAULT 1 NOT NULL,
	"qv" json DEFAULT '{}' NOT NULL,
	"pending" bigint DEFAULT 0 NOT NULL,
	"max_of" json DEFAULT '{}' NOT NULL,
	"submitted_at" bigint DEFAULT 0 NOT NULL,
	"elapsed" bigint,
	"et" bigint NOT NULL,
	"receipt" text,
	"created_at" bigint NOT NULL,
	"rev" bigint NOT NULL,
	"deleted" boolean DEFAULT false NOT NULL,
	CONSTRAINT "exam_result_attempt_id_unique" UNIQUE("attempt_id")
);
--> statement-breakpoint
CREATE TABLE "ledger_entry" (
	"id" text PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL,
	"payment_id" text,
	"kind" text NOT NULL,
	"amount" bigint NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "meta" (
	"key" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "one_time_code" (
	"id" text PRIMARY KEY NOT NULL,
	"person_id" text NOT NULL,
	"purpose" text NOT NULL,
	"code_hash" text NOT NULL,
	"expires_at" bigint NOT NULL,
	"used_at" bigint,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "outbox" (
	"id" text PRIMARY KEY NOT NULL,
	"channel" text NOT NULL,
	"recipient" text NOT NULL,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"status" text DEFAULT 'QUEUED' NOT NULL,
	"error" text,
	"created_at" bigint NOT NULL,
	"sent_at" bigint
);
--> statement-breakpoint
CREATE TABLE "payment" (
	"id" text PRIMARY KEY NOT NULL,
	"amount" bigint NOT NULL,
	"channel" text NOT NULL,
	"transaction_id" text NOT NULL,
	"details" json,
	"is_credit" boolean DEFAULT true NOT NULL,
	"order_id" text,
	"person_id" text,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"provider" text,
	"flag" text,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "payment_transaction_id_unique" UNIQUE("transaction_id")
);
--> statement-breakpoint
CREATE TABLE "payment_event" (
	"id" text PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"order_id" text,
	"type" text NOT NULL,
	"payload" json,
	"merchant_order_id" text,
	"pg_order_id" text,
	"received_at" bigint NOT NULL,
	"processed_at" bigint,
	"attempts" bigint DEFAULT 0 NOT NULL,
	"next_attempt_at" bigint DEFAULT 0 NOT NULL,
	"last_error" text
);
--> statement-breakpoint
CREATE TABLE "permission" (
	"id" text PRIMARY KEY NOT NULL,
	"permission" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"created_at" bigint NOT NULL,
	CONSTRAINT "permission_permission_unique" UNIQUE("permission")
);
--> statement-breakpoint
CREATE TABLE "person" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"mobile" text NOT NULL,
	"mobile_verified" boolean DEFAULT false NOT NULL,
	"email" text,
	"email_verified" boolean DEFAULT false NOT NULL,
	"role_id" text,
	"status" text DEFAULT 'ACTIVE' NOT NULL,
	"parent_id" text,
	"paid_amount" double precision DEFAULT 0 NOT NULL,
	"aw" double precision DEFAULT 0 NOT NULL,
	"total_withdrawn" double precision DEFAULT 0 NOT NULL,
	"tac" double precision DEFAULT 0 NOT NULL,
	"taw" double precision DEFAULT 0 NOT NULL,
	"curr_orbit" bigint DEFAULT 0 NOT NULL,
	"aadhar_front" text,
	"aadhar_back" text,
	"pan" text,
	"pic" text,
	"amount_next_level" double precision DEFAULT 0 NOT NULL,
	"dq" double precision DEFAULT 0 NOT NULL,
	"co" text,
	"iprr" bigint DEFAULT 0 NOT NULL,
	"password_hash" text NOT NULL,
	"permission_names" text DEFAULT '' NOT NULL,
	"token_version" bigint DEFAULT 0 NOT NULL,
	"storage_bytes" bigint DEFAULT 0 NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "person_mobile_unique" UNIQUE("mobile"),
	CONSTRAINT "person_email_unique" UNIQUE("email")
);
--> statement-breakpoint
CREATE TABLE "person_permission" (
	"person_id" text NOT NULL,
	"permission_id" text NOT NULL,
	CONSTRAINT "person_permission_person_id_permission_id_pk" PRIMARY KEY("person_id","permission_id")
);
--> statement-breakpoint
CREATE TABLE "plan" (
	"id" text PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"name" json NOT NULL,
	"total" bigint NOT NULL,
	"approx" json NOT NULL,
	"contents" json NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"sort_order" bigint DEFAULT 0 NOT NULL,
	"created_at" bigint NOT NULL,
	CONSTRAINT "plan_code_unique" UNIQUE("code")
);
--> statement-breakpoint
CREATE TABLE "purchase_order" (
	"id" text PRIMARY KEY NOT NULL,
	"person_id" text,
	"plan_id" text,
	"kind" text DEFAULT 'PLAN' NOT NULL,
	"reference" text,
	"amount" bigint NOT NULL,
	"status" text DEFAULT 'CREATED' NOT NULL,
	"provider" text,
	"pg_order_id" text,
	"redirect_url" text DEFAULT '/' NOT NULL,
	"expires_at" bigint NOT NULL,
	"paid_at" bigint,
	"receipt_no" bigint,
	"retry_of" text,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "purchase_order_receipt_no_unique" UNIQUE("receipt_no")
);
--> statement-breakpoint
CREATE TABLE "push_once" (
	"key" text PRIMARY KEY NOT NULL,
	"person_id" text NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "push_subscription" (
	"id" text PRIMARY KEY NOT NULL,
	"person_id" text NOT NULL,
	"session_id" text NOT NULL,
	"endpoint" text NOT NULL,
	"p256dh" text NOT NULL,
	"auth" text NOT NULL,
	"lang" text,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "push_subscription_endpoint_unique" UNIQUE("endpoint")
);
--> statement-breakpoint
CREATE TABLE "question" (
	"id" text PRIMARY KEY NOT NULL,
	"q" text NOT NULL,
	"ops" json NOT NULL,
	"c" json NOT NULL,
	"d" text DEFAULT '3' NOT NULL,
	"ca" json NOT NULL,
	"qt" text DEFAULT 'mcq1' NOT NULL,
	"s" text,
	"t" json NOT NULL,
	"e" json NOT NULL,
	"st" text DEFAULT 'PENDING' NOT NULL,
	"trans" json NOT NULL,
	"reason" text,
	"version" bigint DEFAULT 1 NOT NULL,
	"created_by" text,
	"updated_by" text,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	"rev" bigint NOT NULL,
	"deleted" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "question_import" (
	"id" text PRIMARY KEY NOT NULL,
	"file_name" text NOT NULL,
	"file_hash" text NOT NULL,
	"format" text NOT NULL,
	"person_id" text,
	"rows" bigint NOT NULL,
	"stored" bigint NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "question_import_row" (
	"hash" text PRIMARY KEY NOT NULL,
	"question_id" text NOT NULL,
	"import_id" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "question_search" (
	"id" bigint PRIMARY KEY GENERATED BY DEFAULT AS IDENTITY (sequence name "question_search_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"question_id" text NOT NULL,
	"body" text NOT NULL,
	CONSTRAINT "question_search_question_id_unique" UNIQUE("question_id")
);
--> statement-breakpoint
CREATE TABLE "question_set" (
	"id" text PRIMARY KEY NOT NULL,
	"l" text NOT NULL,
	"mpq" double precision NOT NULL,
	"tm" double precision NOT NULL,
	"nm" double precision DEFAULT 0 NOT NULL,
	"dur" bigint DEFAULT 0 NOT NULL,
	"is_m" boolean DEFAULT false NOT NULL,
	"free" boolean DEFAULT false NOT NULL,
	"inst" text DEFAULT '' NOT NULL,
	"q" json NOT NULL,
	"sections" json NOT NULL,
	"pts" bigint NOT NULL,
	"published" boolean DEFAULT false NOT NULL,
	"published_at" bigint,
	"detail_rev" bigint DEFAULT 0 NOT NULL,
	"draft" boolean DEFAULT false NOT NULL,
	"langs" json DEFAULT '[]' NOT NULL,
	"version" bigint DEFAULT 1 NOT NULL,
	"created_by" text,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	"rev" bigint NOT NULL,
	"deleted" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "question_set_version" (
	"set_id" text NOT NULL,
	"version" bigint NOT NULL,
	"data" json NOT NULL,
	"actor_id" text,
	"created_at" bigint NOT NULL,
	CONSTRAINT "question_set_version_set_id_version_pk" PRIMARY KEY("set_id","version")
);
--> statement-breakpoint
CREATE TABLE "question_tag" (
	"tid" text NOT NULL,
	"question_id" text NOT NULL,
	CONSTRAINT "question_tag_tid_question_id_pk" PRIMARY KEY("tid","question_id")
);
--> statement-breakpoint
CREATE TABLE "question_version" (
	"question_id" text NOT NULL,
	"version" bigint NOT NULL,
	"data" json NOT NULL,
	"action" text NOT NULL,
	"actor_id" text,
	"actor_name" text,
	"created_at" bigint NOT NULL,
	CONSTRAINT "question_version_question_id_version_pk" PRIMARY KEY("question_id","version")
);
--> statement-breakpoint
CREATE TABLE "rate_limit" (
	"key" text PRIMARY KEY NOT NULL,
	"points" bigint NOT NULL,
	"expire" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "revision_counter" (
	"id" bigint PRIMARY KEY NOT NULL,
	"value" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "role" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"created_at" bigint NOT NULL,
	CONSTRAINT "role_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "role_permission" (
	"role_id" text NOT NULL,
	"permission_id" text NOT NULL,
	CONSTRAINT "role_permission_role_id_permission_id_pk" PRIMARY KEY("role_id","permission_id")
);
--> statement-breakpoint
CREATE TABLE "session" (
	"id" text PRIMARY KEY NOT NULL,
	"person_id" text NOT NULL,
	"created_at" bigint NOT NULL,
	"last_seen_at" bigint NOT NULL,
	"expires_at" bigint NOT NULL,
	"revoked_at" bigint,
	"user_agent" text
);
--> statement-breakpoint
CREATE TABLE "static_page" (
	"key" text PRIMARY KEY NOT NULL,
	"content" json NOT NULL,
	"updated_at" bigint NOT NULL,
	"updated_by" text
);
--> statement-breakpoint
CREATE TABLE "tag" (
	"tid" text PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"tags" json NOT NULL,
	"created_at" bigint NOT NULL,
	"uat" bigint NOT NULL,
	"rev" bigint NOT NULL,
	"deleted" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
ALTER TABLE "activity_log" ADD CONSTRAINT "activity_log_person_id_person_id_fk" FOREIGN KEY ("person_id") REFERENCES "public"."person"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attempt" ADD CONSTRAINT "attempt_person_id_person_id_fk" FOREIGN KEY ("person_id") REFERENCES "public"."person"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attempt" ADD CONSTRAINT "attempt_qsid_question_set_id_fk" FOREIGN KEY ("qsid") REFERENCES "public"."question_set"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "entitlement" ADD CONSTRAINT "entitlement_person_id_person_id_fk" FOREIGN KEY ("person_id") REFERENCES "public"."person"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "entitlement_state" ADD CONSTRAINT "entitlement_state_person_id_person_id_fk" FOREIGN KEY ("person_id") REFERENCES "public"."person"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "entitlement_use" ADD CONSTRAINT "entitlement_use_person_id_person_id_fk" FOREIGN KEY ("person_id") REFERENCES "public"."person"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_result" ADD CONSTRAINT "exam_result_person_id_person_id_fk" FOREIGN KEY ("person_id") REFERENCES "public"."person"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_result" ADD CONSTRAINT "exam_result_qsid_question_set_id_fk" FOREIGN KEY ("qsid") REFERENCES "public"."question_set"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_result" ADD CONSTRAINT "exam_result_attempt_id_attempt_id_fk" FOREIGN KEY ("attempt_id") REFERENCES "public"."attempt"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "one_time_code" ADD CONSTRAINT "one_time_code_person_id_person_id_fk" FOREIGN KEY ("person_id") REFERENCES "public"."person"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment" ADD CONSTRAINT "payment_order_id_purchase_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."purchase_order"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment" ADD CONSTRAINT "payment_person_id_person_id_fk" FOREIGN KEY ("person_id") REFERENCES "public"."person"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "person" ADD CONSTRAINT "person_role_id_role_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."role"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "person" ADD CONSTRAINT "person_parent_id_person_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."person"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "person_permission" ADD CONSTRAINT "person_permission_person_id_person_id_fk" FOREIGN KEY ("person_id") REFERENCES "public"."person"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "person_permission" ADD CONSTRAINT "person_permission_permission_id_permission_id_fk" FOREIGN KEY ("permission_id") REFERENCES "public"."permission"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchase_order" ADD CONSTRAINT "purchase_order_person_id_person_id_fk" FOREIGN KEY ("person_id") REFERENCES "public"."person"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchase_order" ADD CONSTRAINT "purchase_order_plan_id_plan_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plan"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "push_once" ADD CONSTRAINT "push_once_person_id_person_id_fk" FOREIGN KEY ("person_id") REFERENCES "public"."person"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "push_subscription" ADD CONSTRAINT "push_subscription_person_id_person_id_fk" FOREIGN KEY ("person_id") REFERENCES "public"."person"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "push_subscription" ADD CONSTRAINT "push_subscription_session_id_session_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."session"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question" ADD CONSTRAINT "question_created_by_person_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."person"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question" ADD CONSTRAINT "question_updated_by_person_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."person"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_import" ADD CONSTRAINT "question_import_person_id_person_id_fk" FOREIGN KEY ("person_id") REFERENCES "public"."person"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_import_row" ADD CONSTRAINT "question_import_row_question_id_question_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."question"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_import_row" ADD CONSTRAINT "question_import_row_import_id_question_import_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."question_import"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_search" ADD CONSTRAINT "question_search_question_id_question_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."question"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_set" ADD CONSTRAINT "question_set_created_by_person_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."person"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_set_version" ADD CONSTRAINT "question_set_version_set_id_question_set_id_fk" FOREIGN KEY ("set_id") REFERENCES "public"."question_set"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_set_version" ADD CONSTRAINT "question_set_version_actor_id_person_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."person"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_tag" ADD CONSTRAINT "question_tag_question_id_question_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."question"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_version" ADD CONSTRAINT "question_version_question_id_question_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."question"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_version" ADD CONSTRAINT "question_version_actor_id_person_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."person"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "role_permission" ADD CONSTRAINT "role_permission_role_id_role_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."role"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "role_permission" ADD CONSTRAINT "role_permission_permission_id_permission_id_fk" FOREIGN KEY ("permission_id") REFERENCES "public"."permission"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session" ADD CONSTRAINT "session_person_id_person_id_fk" FOREIGN KEY ("person_id") REFERENCES "public"."person"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "static_page" ADD CONSTRAINT "static_page_updated_by_person_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."person"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "activity_created_idx" ON "activity_log" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "attempt_person_idx" ON "attempt" USING btree ("person_id","rev");--> statement-breakpoint
CREATE UNIQUE INDEX "attempt_rev_idx" ON "attempt" USING btree ("rev");--> statement-breakpoint
CREATE INDEX "attempt_qsid_idx" ON "attempt" USING btree ("qsid","person_id");--> statement-breakpoint
CREATE INDEX "entitlement_person_idx" ON "entitlement" USING btree ("person_id","ends_at");--> statement-breakpoint
CREATE INDEX "entitlement_use_person_idx" ON "entitlement_use" USING btree ("person_id","started_at");--> statement-breakpoint
CREATE INDEX "result_person_idx" ON "exam_result" USING btree ("person_id","rev");--> statement-breakpoint
CREATE UNIQUE INDEX "result_rev_idx" ON "exam_result" USING btree ("rev");--> statement-breakpoint
CREATE INDEX "result_qsid_idx" ON "exam_result" USING btree ("qsid","person_id");--> statement-breakpoint
CREATE INDEX "ledger_created_idx" ON "ledger_entry" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "ledger_order_idx" ON "ledger_entry" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "otc_person_idx" ON "one_time_code" USING btree ("person_id","purpose");--> statement-breakpoint
CREATE INDEX "outbox_recipient_idx" ON "outbox" USING btree ("recipient","created_at");--> statement-breakpoint
CREATE INDEX "payment_created_idx" ON "payment" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "payment_order_idx" ON "payment" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "payment_event_waiting_idx" ON "payment_event" USING btree ("next_attempt_at") WHERE "payment_event"."processed_at" is null;--> statement-breakpoint
CREATE INDEX "person_parent_idx" ON "person" USING btree ("parent_id");--> statement-breakpoint
CREATE INDEX "person_name_idx" ON "person" USING btree ("name");--> statement-breakpoint
CREATE INDEX "order_person_idx" ON "purchase_order" USING btree ("person_id");--> statement-breakpoint
CREATE INDEX "order_created_idx" ON "purchase_order" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "order_status_idx" ON "purchase_order" USING btree ("status","expires_at");--> statement-breakpoint
CREATE INDEX "order_pg_idx" ON "purchase_order" USING btree ("pg_order_id");--> statement-breakpoint
CREATE INDEX "push_subscription_person_idx" ON "push_subscription" USING btree ("person_id","updated_at");--> statement-breakpoint
CREATE INDEX "question_s_idx" ON "question" USING btree ("s");--> statement-breakpoint
CREATE UNIQUE INDEX "question_rev_idx" ON "question" USING btree ("rev");--> statement-breakpoint
CREATE INDEX "question_list_idx" ON "question" USING btree ("deleted","created_at","id");--> statement-breakpoint
CREATE INDEX "question_st_idx" ON "question" USING btree ("st");--> statement-breakpoint
CREATE INDEX "question_import_hash_idx" ON "question_import" USING btree ("file_hash");--> statement-breakpoint
CREATE INDEX "question_import_row_q_idx" ON "question_import_row" USING btree ("question_id");--> statement-breakpoint
CREATE UNIQUE INDEX "question_set_rev_idx" ON "question_set" USING btree ("rev");--> statement-breakpoint
CREATE INDEX "question_set_detail_rev_idx" ON "question_set" USING btree ("detail_rev");--> statement-breakpoint
CREATE INDEX "question_tag_q_idx" ON "question_tag" USING btree ("question_id");--> statement-breakpoint
CREATE INDEX "session_person_idx" ON "session" USING btree ("person_id");--> statement-breakpoint
CREATE INDEX "tag_key_idx" ON "tag" USING btree ("key");--> statement-breakpoint
CREATE UNIQUE INDEX "tag_rev_idx" ON "tag" USING btree ("rev");