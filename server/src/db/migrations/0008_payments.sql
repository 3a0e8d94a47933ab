CREATE TABLE `entitlement` (
	`id` text PRIMARY KEY NOT NULL,
	`person_id` text NOT NULL,
	`order_id` text NOT NULL,
	`plan_code` text NOT NULL,
	`starts_at` integer NOT NULL,
	`ends_at` integer NOT NULL,
	`mock_limit` integer,
	`practice_limit` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`person_id`) REFERENCES `person`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `entitlement_order_id_unique` ON `entitlement` (`order_id`);--> statement-breakpoint
CREATE INDEX `entitlement_person_idx` ON `entitlement` (`person_id`,`ends_at`);--> statement-breakpoint
CREATE TABLE `entitlement_state` (
	`person_id` text PRIMARY KEY NOT NULL,
	`rev` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`person_id`) REFERENCES `person`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `entitlement_use` (
	`attempt_id` text PRIMARY KEY NOT NULL,
	`person_id` text NOT NULL,
	`qsid` text NOT NULL,
	`kind` text NOT NULL,
	`entitlement_id` text,
	`over_limit` integer DEFAULT false NOT NULL,
	`started_at` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`person_id`) REFERENCES `person`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `entitlement_use_person_idx` ON `entitlement_use` (`person_id`,`started_at`);--> statement-breakpoint
CREATE TABLE `ledger_entry` (
	`id` text PRIMARY KEY NOT NULL,
	`order_id` text NOT NULL,
	`payment_id` text,
	`kind` text NOT NULL,
	`amount` integer NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `ledger_created_idx` ON `ledger_entry` (`created_at`);--> statement-breakpoint
CREATE INDEX `ledger_order_idx` ON `ledger_entry` (`order_id`);--> statement-breakpoint
CREATE TABLE `payment_event` (
	`id` text PRIMARY KEY NOT NULL,
	`provider` text NOT NULL,
	`order_id` text,
	`type` text NOT NULL,
	`payload` text,
	`received_at` integer NOT NULL
);
--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_payment` (
	`id` text PRIMARY KEY NOT NULL,
	`amount` integer NOT NULL,
	`channel` text NOT NULL,
	`transaction_id` text NOT NULL,
	`details` text,
	`is_credit` integer DEFAULT true NOT NULL,
	`order_id` text,
	`person_id` text,
	`status` text DEFAULT 'PENDING' NOT NULL,
	`provider` text,
	`flag` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`order_id`) REFERENCES `purchase_order`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`person_id`) REFERENCES `person`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
INSERT INTO `__new_payment`("id", "amount", "channel", "transaction_id", "details", "is_credit", "order_id", "person_id", "status", "created_at", "updated_at") SELECT "id", CAST(round("amount" * 100) AS INTEGER), "channel", "transaction_id", "details", "is_credit", "order_id", "person_id", "status", "created_at", "updated_at" FROM `payment`;--> statement-breakpoint
DROP TABLE `payment`;--> statement-breakpoint
ALTER TABLE `__new_payment` RENAME TO `payment`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `payment_transaction_id_unique` ON `payment` (`transaction_id`);--> statement-breakpoint
CREATE INDEX `payment_created_idx` ON `payment` (`created_at`);--> statement-breakpoint
CREATE INDEX `payment_order_idx` ON `payment` (`order_id`);--> statement-breakpoint
CREATE TABLE `__new_purchase_order` (
	`id` text PRIMARY KEY NOT NULL,
	`person_id` text,
	`plan_id` text,
	`kind` text DEFAULT 'PLAN' NOT NULL,
	`reference` text,
	`amount` integer NOT NULL,
	`status` text DEFAULT 'CREATED' NOT NULL,
	`provider` text,
	`pg_order_id` text,
	`redirect_url` text DEFAULT '/' NOT NULL,
	`expires_at` integer NOT NULL,
	`paid_at` integer,
	`receipt_no` integer,
	`retry_of` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`person_id`) REFERENCES `person`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`plan_id`) REFERENCES `plan`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
INSERT INTO `__new_purchase_order`("id", "person_id", "plan_id", "amount", "status", "expires_at", "paid_at", "receipt_no", "created_at", "updated_at") SELECT "id", "person_id", "plan_id", CAST(round("amount" * 100) AS INTEGER), "status", "created_at", CASE WHEN "status" = 'PAID' THEN "updated_at" END, CASE WHEN "status" = 'PAID' THEN ROW_NUMBER() OVER (PARTITION BY "status" = 'PAID' ORDER BY "created_at", "id") END, "created_at", "updated_at" FROM `purchase_order`;--> statement-breakpoint
DROP TABLE `purchase_order`;--> statement-breakpoint
ALTER TABLE `__new_purchase_order` RENAME TO `purchase_order`;--> statement-breakpoint
CREATE UNIQUE INDEX `purchase_order_receipt_no_unique` ON `purchase_order` (`receipt_no`);--> statement-breakpoint
CREATE INDEX `order_person_idx` ON `purchase_order` (`person_id`);--> statement-breakpoint
CREATE INDEX `order_created_idx` ON `purchase_order` (`created_at`);--> statement-breakpoint
CREATE INDEX `order_status_idx` ON `purchase_order` (`status`,`expires_at`);--> statement-breakpoint
CREATE INDEX `order_pg_idx` ON `purchase_order` (`pg_order_id`);--> statement-breakpoint
ALTER TABLE `question_set` ADD `free` integer DEFAULT false NOT NULL;--> statement-breakpoint
INSERT INTO `ledger_entry`("id", "order_id", "payment_id", "kind", "amount", "created_at") SELECT 'ledger-' || p."id", p."order_id", p."id", 'CAPTURE', p."amount", p."created_at" FROM `payment` p WHERE p."status" = 'SUCCESS' AND p."order_id" IS NOT NULL;
