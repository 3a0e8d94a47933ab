CREATE TABLE `session` (
	`id` text PRIMARY KEY NOT NULL,
	`person_id` text NOT NULL,
	`created_at` integer NOT NULL,
	`last_seen_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`revoked_at` integer,
	`user_agent` text,
	FOREIGN KEY (`person_id`) REFERENCES `person`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `session_person_idx` ON `session` (`person_id`);--> statement-breakpoint
ALTER TABLE `exam_result` ADD `practice` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `person` ADD `storage_bytes` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `push_token` ADD `session_id` text REFERENCES session(id) ON DELETE cascade;--> statement-breakpoint
UPDATE `exam_result` SET `practice` = 1 WHERE EXISTS (SELECT 1 FROM `exam_result` AS `first` WHERE `first`.`person_id` = `exam_result`.`person_id` AND `first`.`qsid` = `exam_result`.`qsid` AND (`first`.`created_at` < `exam_result`.`created_at` OR (`first`.`created_at` = `exam_result`.`created_at` AND `first`.`rowid` < `exam_result`.`rowid`)));--> statement-breakpoint
UPDATE `person` SET `storage_bytes` = (SELECT COALESCE(SUM(LENGTH(`answers`)), 0) FROM `attempt` WHERE `attempt`.`person_id` = `person`.`id`);
