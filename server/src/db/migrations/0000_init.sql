CREATE TABLE `activity_log` (
	`id` text PRIMARY KEY NOT NULL,
	`created_at` integer NOT NULL,
	`action_type` text NOT NULL,
	`person_id` text,
	`person_name` text,
	`entity_affected` text NOT NULL,
	`entity_id` text NOT NULL,
	`old_value` text,
	`new_value` text,
	FOREIGN KEY (`person_id`) REFERENCES `person`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `activity_created_idx` ON `activity_log` (`created_at`);--> statement-breakpoint
CREATE TABLE `attempt` (
	`id` text PRIMARY KEY NOT NULL,
	`person_id` text NOT NULL,
	`qsid` text NOT NULL,
	`st` integer NOT NULL,
	`server_first_seen` integer NOT NULL,
	`lsq` text,
	`idx` integer DEFAULT 0 NOT NULL,
	`selected_section` text,
	`answers` text NOT NULL,
	`status` text DEFAULT 'IN_PROGRESS' NOT NULL,
	`submitted_at` integer,
	`updated_at` integer NOT NULL,
	`rev` integer NOT NULL,
	`deleted` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`person_id`) REFERENCES `person`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`qsid`) REFERENCES `question_set`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `attempt_person_idx` ON `attempt` (`person_id`,`rev`);--> statement-breakpoint
CREATE UNIQUE INDEX `attempt_rev_idx` ON `attempt` (`rev`);--> statement-breakpoint
CREATE TABLE `brand` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`logo` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `brand_name_unique` ON `brand` (`name`);--> statement-breakpoint
CREATE TABLE `contact_message` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`email` text,
	`mobile` text NOT NULL,
	`description` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `exam_result` (
	`id` text PRIMARY KEY NOT NULL,
	`person_id` text NOT NULL,
	`qsid` text NOT NULL,
	`attempt_id` text NOT NULL,
	`marks` text NOT NULL,
	`user_res` text NOT NULL,
	`total_marks` real NOT NULL,
	`et` integer NOT NULL,
	`created_at` integer NOT NULL,
	`rev` integer NOT NULL,
	`deleted` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`person_id`) REFERENCES `person`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`qsid`) REFERENCES `question_set`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`attempt_id`) REFERENCES `attempt`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `exam_result_attempt_id_unique` ON `exam_result` (`attempt_id`);--> statement-breakpoint
CREATE INDEX `result_person_idx` ON `exam_result` (`person_id`,`rev`);--> statement-breakpoint
CREATE UNIQUE INDEX `result_rev_idx` ON `exam_result` (`rev`);--> statement-breakpoint
CREATE TABLE `meta` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `one_time_code` (
	`id` text PRIMARY KEY NOT NULL,
	`person_id` text NOT NULL,
	`purpose` text NOT NULL,
	`code_hash` text NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`person_id`) REFERENCES `person`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `otc_person_idx` ON `one_time_code` (`person_id`,`purpose`);--> statement-breakpoint
CREATE TABLE `outbox` (
	`id` text PRIMARY KEY NOT NULL,
	`channel` text NOT NULL,
	`recipient` text NOT NULL,
	`subject` text NOT NULL,
	`body` text NOT NULL,
	`status` text DEFAULT 'QUEUED' NOT NULL,
	`error` text,
	`created_at` integer NOT NULL,
	`sent_at` integer
);
--> statement-breakpoint
CREATE INDEX `outbox_recipient_idx` ON `outbox` (`recipient`,`created_at`);--> statement-breakpoint
CREATE TABLE `payment` (
	`id` text PRIMARY KEY NOT NULL,
	`amount` real NOT NULL,
	`channel` text NOT NULL,
	`transaction_id` text NOT NULL,
	`details` text,
	`is_credit` integer DEFAULT true NOT NULL,
	`order_id` text,
	`person_id` text,
	`status` text DEFAULT 'PENDING' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`order_id`) REFERENCES `purchase_order`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`person_id`) REFERENCES `person`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payment_transaction_id_unique` ON `payment` (`transaction_id`);--> statement-breakpoint
CREATE INDEX `payment_created_idx` ON `payment` (`created_at`);--> statement-breakpoint
CREATE TABLE `permission` (
	`id` text PRIMARY KEY NOT NULL,
	`permission` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `permission_permission_unique` ON `permission` (`permission`);--> statement-breakpoint
CREATE TABLE `person` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`mobile` text NOT NULL,
	`mobile_verified` integer DEFAULT false NOT NULL,
	`email` text,
	`email_verified` integer DEFAULT false NOT NULL,
	`role_id` text,
	`status` text DEFAULT 'ACTIVE' NOT NULL,
	`parent_id` text,
	`paid_amount` real DEFAULT 0 NOT NULL,
	`aw` real DEFAULT 0 NOT NULL,
	`total_withdrawn` real DEFAULT 0 NOT NULL,
	`tac` real DEFAULT 0 NOT NULL,
	`taw` real DEFAULT 0 NOT NULL,
	`curr_orbit` integer DEFAULT 0 NOT NULL,
	`aadhar_front` text,
	`aadhar_back` text,
	`pan` text,
	`pic` text,
	`amount_next_level` real DEFAULT 0 NOT NULL,
	`dq` real DEFAULT 0 NOT NULL,
	`co` text,
	`iprr` integer DEFAULT 0 NOT NULL,
	`password_hash` text NOT NULL,
	`token_version` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`role_id`) REFERENCES `role`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`parent_id`) REFERENCES `person`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `person_mobile_unique` ON `person` (`mobile`);--> statement-breakpoint
CREATE UNIQUE INDEX `person_email_unique` ON `person` (`email`);--> statement-breakpoint
CREATE INDEX `person_parent_idx` ON `person` (`parent_id`);--> statement-breakpoint
CREATE INDEX `person_name_idx` ON `person` (`name`);--> statement-breakpoint
CREATE TABLE `person_permission` (
	`person_id` text NOT NULL,
	`permission_id` text NOT NULL,
	PRIMARY KEY(`person_id`, `permission_id`),
	FOREIGN KEY (`person_id`) REFERENCES `person`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`permission_id`) REFERENCES `permission`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `plan` (
	`id` text PRIMARY KEY NOT NULL,
	`code` text NOT NULL,
	`name` text NOT NULL,
	`total` integer NOT NULL,
	`approx` text NOT NULL,
	`contents` text NOT NULL,
	`active` integer DEFAULT true NOT NULL,
	`sort_order` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `plan_code_unique` ON `plan` (`code`);--> statement-breakpoint
CREATE TABLE `purchase_order` (
	`id` text PRIMARY KEY NOT NULL,
	`person_id` text,
	`plan_id` text,
	`amount` real NOT NULL,
	`status` text DEFAULT 'CREATED' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`person_id`) REFERENCES `person`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`plan_id`) REFERENCES `plan`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE INDEX `order_person_idx` ON `purchase_order` (`person_id`);--> statement-breakpoint
CREATE INDEX `order_created_idx` ON `purchase_order` (`created_at`);--> statement-breakpoint
CREATE TABLE `push_token` (
	`id` text PRIMARY KEY NOT NULL,
	`person_id` text NOT NULL,
	`token` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`person_id`) REFERENCES `person`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `push_token_token_unique` ON `push_token` (`token`);--> statement-breakpoint
CREATE TABLE `question` (
	`id` text PRIMARY KEY NOT NULL,
	`q` text NOT NULL,
	`ops` text NOT NULL,
	`c` text NOT NULL,
	`d` text DEFAULT '3' NOT NULL,
	`ca` text NOT NULL,
	`qt` text DEFAULT 'mcq1' NOT NULL,
	`s` text,
	`t` text NOT NULL,
	`e` text NOT NULL,
	`st` text DEFAULT 'PENDING' NOT NULL,
	`trans` text NOT NULL,
	`created_by` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`rev` integer NOT NULL,
	`deleted` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`created_by`) REFERENCES `person`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `question_s_idx` ON `question` (`s`);--> statement-breakpoint
CREATE UNIQUE INDEX `question_rev_idx` ON `question` (`rev`);--> statement-breakpoint
CREATE TABLE `question_set` (
	`id` text PRIMARY KEY NOT NULL,
	`l` text NOT NULL,
	`mpq` real NOT NULL,
	`tm` real NOT NULL,
	`nm` real DEFAULT 0 NOT NULL,
	`dur` integer DEFAULT 0 NOT NULL,
	`is_m` integer DEFAULT false NOT NULL,
	`inst` text DEFAULT '' NOT NULL,
	`q` text NOT NULL,
	`sections` text NOT NULL,
	`pts` integer NOT NULL,
	`created_by` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`rev` integer NOT NULL,
	`deleted` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`created_by`) REFERENCES `person`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `question_set_rev_idx` ON `question_set` (`rev`);--> statement-breakpoint
CREATE TABLE `rate_limit` (
	`key` text PRIMARY KEY NOT NULL,
	`points` integer NOT NULL,
	`expire` integer
);
--> statement-breakpoint
CREATE TABLE `revision_counter` (
	`id` integer PRIMARY KEY NOT NULL,
	`value` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `role` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `role_name_unique` ON `role` (`name`);--> statement-breakpoint
CREATE TABLE `role_permission` (
	`role_id` text NOT NULL,
	`permission_id` text NOT NULL,
	PRIMARY KEY(`role_id`, `permission_id`),
	FOREIGN KEY (`role_id`) REFERENCES `role`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`permission_id`) REFERENCES `permission`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `tag` (
	`tid` text PRIMARY KEY NOT NULL,
	`key` text NOT NULL,
	`tags` text NOT NULL,
	`created_at` integer NOT NULL,
	`uat` integer NOT NULL,
	`rev` integer NOT NULL,
	`deleted` integer DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE INDEX `tag_key_idx` ON `tag` (`key`);--> statement-breakpoint
CREATE UNIQUE INDEX `tag_rev_idx` ON `tag` (`rev`);