CREATE TABLE `payout_account` (
	`id` text PRIMARY KEY NOT NULL,
	`person_id` text,
	`campaign_id` text,
	`supplier_name` text,
	`kind` text NOT NULL,
	`holder_name` text NOT NULL,
	`ifsc` text,
	`account_number` text,
	`account_last4` text,
	`vpa` text,
	`status` text DEFAULT 'PENDING' NOT NULL,
	`verified_name` text,
	`name_matches` integer,
	`contact_id` text,
	`fund_account_id` text,
	`created_at` integer NOT NULL,
	`verified_at` integer,
	`deleted_at` integer,
	FOREIGN KEY (`person_id`) REFERENCES `person`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`campaign_id`) REFERENCES `campaign`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `payout_account_person_idx` ON `payout_account` (`person_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `payout_account_campaign_idx` ON `payout_account` (`campaign_id`);--> statement-breakpoint
CREATE TABLE `withdrawal` (
	`id` text PRIMARY KEY NOT NULL,
	`campaign_id` text NOT NULL,
	`requester_id` text,
	`requester_name` text NOT NULL,
	`payout_account_id` text NOT NULL,
	`amount` integer NOT NULL,
	`from_domestic` integer NOT NULL,
	`from_foreign` integer NOT NULL,
	`purpose_en` text NOT NULL,
	`purpose_hi` text DEFAULT '' NOT NULL,
	`status` text DEFAULT 'REQUESTED' NOT NULL,
	`reason` text,
	`due_at` integer NOT NULL,
	`attempt` integer DEFAULT 0 NOT NULL,
	`payout_key` text,
	`payout_id` text,
	`utr` text,
	`failure` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`paid_at` integer,
	FOREIGN KEY (`campaign_id`) REFERENCES `campaign`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`requester_id`) REFERENCES `person`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`payout_account_id`) REFERENCES `payout_account`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE INDEX `withdrawal_campaign_idx` ON `withdrawal` (`campaign_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `withdrawal_requester_idx` ON `withdrawal` (`requester_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `withdrawal_status_idx` ON `withdrawal` (`status`,`due_at`);--> statement-breakpoint
CREATE INDEX `withdrawal_payout_idx` ON `withdrawal` (`payout_id`);--> statement-breakpoint
CREATE TABLE `withdrawal_approval` (
	`id` text PRIMARY KEY NOT NULL,
	`withdrawal_id` text NOT NULL,
	`approver_id` text NOT NULL,
	`approver_name` text NOT NULL,
	`note` text,
	`accepted_mismatch` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`withdrawal_id`) REFERENCES `withdrawal`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `withdrawal_approval_once_idx` ON `withdrawal_approval` (`withdrawal_id`,`approver_id`);--> statement-breakpoint
CREATE TABLE `withdrawal_event` (
	`id` text PRIMARY KEY NOT NULL,
	`withdrawal_id` text NOT NULL,
	`action` text NOT NULL,
	`from_status` text,
	`to_status` text NOT NULL,
	`note` text,
	`actor_id` text,
	`actor_name` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`withdrawal_id`) REFERENCES `withdrawal`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `withdrawal_event_withdrawal_idx` ON `withdrawal_event` (`withdrawal_id`,`created_at`);