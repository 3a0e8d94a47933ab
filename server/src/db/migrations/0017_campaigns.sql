CREATE TABLE `campaign` (
	`id` text PRIMARY KEY NOT NULL,
	`beneficiary_id` text,
	`trust_id` text NOT NULL,
	`title_en` text NOT NULL,
	`title_hi` text DEFAULT '' NOT NULL,
	`story_en` text NOT NULL,
	`story_hi` text DEFAULT '' NOT NULL,
	`cause` text NOT NULL,
	`need` text NOT NULL,
	`goal` integer NOT NULL,
	`ends_at` integer NOT NULL,
	`status` text DEFAULT 'DRAFT' NOT NULL,
	`reason` text,
	`created_by` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`submitted_at` integer,
	`approved_at` integer,
	`approved_by` text,
	FOREIGN KEY (`beneficiary_id`) REFERENCES `person`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`trust_id`) REFERENCES `trust`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`created_by`) REFERENCES `person`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`approved_by`) REFERENCES `person`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `campaign_status_idx` ON `campaign` (`status`,`approved_at`);--> statement-breakpoint
CREATE INDEX `campaign_beneficiary_idx` ON `campaign` (`beneficiary_id`);--> statement-breakpoint
CREATE INDEX `campaign_queue_idx` ON `campaign` (`submitted_at`) WHERE "campaign"."status" = 'SUBMITTED';--> statement-breakpoint
CREATE TABLE `campaign_event` (
	`id` text PRIMARY KEY NOT NULL,
	`campaign_id` text NOT NULL,
	`action` text NOT NULL,
	`from_status` text,
	`to_status` text NOT NULL,
	`note` text,
	`actor_id` text,
	`actor_name` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`campaign_id`) REFERENCES `campaign`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`actor_id`) REFERENCES `person`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `campaign_event_campaign_idx` ON `campaign_event` (`campaign_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `campaign_image` (
	`id` text PRIMARY KEY NOT NULL,
	`campaign_id` text NOT NULL,
	`kind` text NOT NULL,
	`update_id` text,
	`position` integer NOT NULL,
	`url` text NOT NULL,
	`bytes` integer NOT NULL,
	`width` integer NOT NULL,
	`height` integer NOT NULL,
	`created_by` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`campaign_id`) REFERENCES `campaign`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`update_id`) REFERENCES `campaign_update`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by`) REFERENCES `person`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `campaign_image_campaign_idx` ON `campaign_image` (`campaign_id`,`kind`,`position`);--> statement-breakpoint
CREATE TABLE `campaign_update` (
	`id` text PRIMARY KEY NOT NULL,
	`campaign_id` text NOT NULL,
	`author_id` text,
	`author_name` text,
	`text_en` text NOT NULL,
	`text_hi` text DEFAULT '' NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`campaign_id`) REFERENCES `campaign`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`author_id`) REFERENCES `person`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `campaign_update_campaign_idx` ON `campaign_update` (`campaign_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `trust` (
	`id` text PRIMARY KEY NOT NULL,
	`code` text NOT NULL,
	`name` text NOT NULL,
	`address` text NOT NULL,
	`registration_no` text NOT NULL,
	`pan` text NOT NULL,
	`approval_80g` text NOT NULL,
	`fcra_registered` integer DEFAULT false NOT NULL,
	`share_bps` integer DEFAULT 600 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `trust_code_unique` ON `trust` (`code`);