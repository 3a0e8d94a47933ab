CREATE TABLE `live_registration` (
	`qsid` text NOT NULL,
	`person_id` text NOT NULL,
	`sms` integer DEFAULT false NOT NULL,
	`lang` text DEFAULT 'en' NOT NULL,
	`created_at` integer NOT NULL,
	`rev` integer NOT NULL,
	PRIMARY KEY(`qsid`, `person_id`),
	FOREIGN KEY (`qsid`) REFERENCES `live_test`(`qsid`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`person_id`) REFERENCES `person`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `live_registration_person_idx` ON `live_registration` (`person_id`,`rev`);--> statement-breakpoint
CREATE TABLE `live_test` (
	`qsid` text PRIMARY KEY NOT NULL,
	`start_at` integer NOT NULL,
	`window_ms` integer NOT NULL,
	`result_at` integer NOT NULL,
	`key` text NOT NULL,
	`wrapped` text NOT NULL,
	`released` integer DEFAULT false NOT NULL,
	`results_opened` integer DEFAULT false NOT NULL,
	`created_by` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`rev` integer NOT NULL,
	FOREIGN KEY (`qsid`) REFERENCES `question_set`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by`) REFERENCES `person`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `live_test_start_idx` ON `live_test` (`released`,`start_at`);--> statement-breakpoint
CREATE INDEX `live_test_result_idx` ON `live_test` (`results_opened`,`result_at`);