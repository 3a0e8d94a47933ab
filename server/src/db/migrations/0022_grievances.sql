CREATE TABLE `grievance` (
	`id` text PRIMARY KEY NOT NULL,
	`number` text NOT NULL,
	`financial_year` text NOT NULL,
	`seq` integer NOT NULL,
	`subject` text NOT NULL,
	`subject_id` text,
	`title` text NOT NULL,
	`text` text NOT NULL,
	`report_reason` text,
	`contact` text,
	`raiser_id` text,
	`raiser_name` text,
	`owner_id` text,
	`status` text DEFAULT 'OPEN' NOT NULL,
	`due_at` integer NOT NULL,
	`resolution_note` text,
	`resolved_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`raiser_id`) REFERENCES `person`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`owner_id`) REFERENCES `person`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `grievance_number_unique` ON `grievance` (`number`);--> statement-breakpoint
CREATE UNIQUE INDEX `grievance_seq_idx` ON `grievance` (`financial_year`,`seq`);--> statement-breakpoint
CREATE INDEX `grievance_queue_idx` ON `grievance` (`status`,`due_at`);--> statement-breakpoint
CREATE INDEX `grievance_raiser_idx` ON `grievance` (`raiser_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `grievance_message` (
	`id` text PRIMARY KEY NOT NULL,
	`grievance_id` text NOT NULL,
	`author_id` text,
	`author_name` text,
	`staff` integer NOT NULL,
	`text` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`grievance_id`) REFERENCES `grievance`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`author_id`) REFERENCES `person`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `grievance_message_idx` ON `grievance_message` (`grievance_id`,`created_at`);