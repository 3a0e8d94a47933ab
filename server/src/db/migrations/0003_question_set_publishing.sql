ALTER TABLE `question_set` ADD `published` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `question_set` ADD `detail_rev` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `question_set_detail_rev_idx` ON `question_set` (`detail_rev`);