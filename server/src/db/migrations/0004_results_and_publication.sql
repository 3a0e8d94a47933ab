ALTER TABLE `attempt` ADD `elapsed` integer;--> statement-breakpoint
CREATE INDEX `attempt_qsid_idx` ON `attempt` (`qsid`,`person_id`);--> statement-breakpoint
ALTER TABLE `exam_result` ADD `out_of` text DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE `exam_result` ADD `total` real DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `exam_result` ADD `late` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `exam_result` ADD `pending` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `exam_result` ADD `max_of` text DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE `exam_result` ADD `submitted_at` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `exam_result` ADD `elapsed` integer;--> statement-breakpoint
CREATE INDEX `result_qsid_idx` ON `exam_result` (`qsid`,`person_id`);--> statement-breakpoint
ALTER TABLE `question_set` ADD `published_at` integer;--> statement-breakpoint
-- Sets published before this migration were published at some time up to their last change.
UPDATE `question_set` SET `published_at` = `updated_at` WHERE `published` = 1;
