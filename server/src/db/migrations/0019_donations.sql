CREATE TABLE `donation` (
	`order_id` text PRIMARY KEY NOT NULL,
	`campaign_id` text NOT NULL,
	`trust_id` text NOT NULL,
	`person_id` text,
	`name` text NOT NULL,
	`email` text NOT NULL,
	`mobile` text NOT NULL,
	`pan` text,
	`address` text,
	`indian_passport` integer NOT NULL,
	`anonymous` integer DEFAULT false NOT NULL,
	`share_bps` integer NOT NULL,
	`share` integer NOT NULL,
	`to_campaign` integer NOT NULL,
	`financial_year` text,
	`receipt_seq` integer,
	`receipt_no` text,
	`created_at` integer NOT NULL,
	`paid_at` integer,
	FOREIGN KEY (`order_id`) REFERENCES `purchase_order`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`campaign_id`) REFERENCES `campaign`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`trust_id`) REFERENCES `trust`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`person_id`) REFERENCES `person`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `donation_receipt_no_unique` ON `donation` (`receipt_no`);--> statement-breakpoint
CREATE INDEX `donation_campaign_idx` ON `donation` (`campaign_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `donation_person_idx` ON `donation` (`person_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `donation_receipt_seq_idx` ON `donation` (`trust_id`,`financial_year`,`receipt_seq`);