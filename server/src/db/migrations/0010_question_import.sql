CREATE TABLE `question_import` (
	`id` text PRIMARY KEY NOT NULL,
	`file_name` text NOT NULL,
	`file_hash` text NOT NULL,
	`format` text NOT NULL,
	`person_id` text,
	`rows` integer NOT NULL,
	`stored` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`person_id`) REFERENCES `person`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `question_import_hash_idx` ON `question_import` (`file_hash`);--> statement-breakpoint
CREATE TABLE `question_import_row` (
	`hash` text PRIMARY KEY NOT NULL,
	`question_id` text NOT NULL,
	`import_id` text NOT NULL,
	FOREIGN KEY (`question_id`) REFERENCES `question`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`import_id`) REFERENCES `question_import`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `question_import_row_q_idx` ON `question_import_row` (`question_id`);