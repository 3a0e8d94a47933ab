CREATE TABLE `sms_answer` (
	`attempt_id` text PRIMARY KEY NOT NULL,
	`person_id` text NOT NULL,
	`qsid` text NOT NULL,
	`received_at` integer NOT NULL,
	`provider` text NOT NULL,
	`provider_message_id` text NOT NULL,
	`answers` text NOT NULL,
	`texts_follow` integer DEFAULT false NOT NULL,
	`stored` integer DEFAULT false NOT NULL,
	`completed_at` integer,
	`differed_at` integer,
	FOREIGN KEY (`person_id`) REFERENCES `person`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sms_answer_person_idx` ON `sms_answer` (`person_id`,`received_at`);