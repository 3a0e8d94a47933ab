CREATE TABLE `banner` (
	`id` text PRIMARY KEY NOT NULL,
	`src` text NOT NULL,
	`headline` text NOT NULL,
	`text` text NOT NULL,
	`call_to_action_text` text NOT NULL,
	`link_to_action` text NOT NULL,
	`type` text NOT NULL,
	`active` integer DEFAULT true NOT NULL,
	`sort_order` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `static_page` (
	`key` text PRIMARY KEY NOT NULL,
	`content` text NOT NULL,
	`updated_at` integer NOT NULL,
	`updated_by` text,
	FOREIGN KEY (`updated_by`) REFERENCES `person`(`id`) ON UPDATE no action ON DELETE set null
);
