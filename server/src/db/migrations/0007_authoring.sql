CREATE TABLE `question_search` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`question_id` text NOT NULL,
	`body` text NOT NULL,
	FOREIGN KEY (`question_id`) REFERENCES `question`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `question_search_question_id_unique` ON `question_search` (`question_id`);--> statement-breakpoint
CREATE TABLE `question_set_version` (
	`set_id` text NOT NULL,
	`version` integer NOT NULL,
	`data` text NOT NULL,
	`actor_id` text,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`set_id`, `version`),
	FOREIGN KEY (`set_id`) REFERENCES `question_set`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`actor_id`) REFERENCES `person`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE TABLE `question_tag` (
	`tid` text NOT NULL,
	`question_id` text NOT NULL,
	PRIMARY KEY(`tid`, `question_id`),
	FOREIGN KEY (`question_id`) REFERENCES `question`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `question_tag_q_idx` ON `question_tag` (`question_id`);--> statement-breakpoint
CREATE TABLE `question_version` (
	`question_id` text NOT NULL,
	`version` integer NOT NULL,
	`data` text NOT NULL,
	`action` text NOT NULL,
	`actor_id` text,
	`actor_name` text,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`question_id`, `version`),
	FOREIGN KEY (`question_id`) REFERENCES `question`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`actor_id`) REFERENCES `person`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
ALTER TABLE `exam_result` ADD `set_version` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `exam_result` ADD `qv` text DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE `question` ADD `reason` text;--> statement-breakpoint
ALTER TABLE `question` ADD `version` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `question` ADD `updated_by` text REFERENCES person(id) ON DELETE set null;--> statement-breakpoint
CREATE INDEX `question_list_idx` ON `question` (`deleted`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `question_st_idx` ON `question` (`st`);--> statement-breakpoint
ALTER TABLE `question_set` ADD `draft` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `question_set` ADD `langs` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `question_set` ADD `version` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
-- Hand-written (issue 17): the trigram full-text index of question_search.body, kept by triggers.
CREATE VIRTUAL TABLE `question_fts` USING fts5(`body`, content='question_search', content_rowid='id', tokenize='trigram');--> statement-breakpoint
CREATE TRIGGER `question_search_ai` AFTER INSERT ON `question_search` BEGIN
  INSERT INTO `question_fts`(rowid, `body`) VALUES (new.`id`, new.`body`);
END;--> statement-breakpoint
CREATE TRIGGER `question_search_ad` AFTER DELETE ON `question_search` BEGIN
  INSERT INTO `question_fts`(`question_fts`, rowid, `body`) VALUES ('delete', old.`id`, old.`body`);
END;--> statement-breakpoint
CREATE TRIGGER `question_search_au` AFTER UPDATE ON `question_search` BEGIN
  INSERT INTO `question_fts`(`question_fts`, rowid, `body`) VALUES ('delete', old.`id`, old.`body`);
  INSERT INTO `question_fts`(rowid, `body`) VALUES (new.`id`, new.`body`);
END;--> statement-breakpoint
-- Existing questions: their tags, and version 1 as they are now (the search text is filled in by
-- the server at start, which strips markup: server/src/modules/questions/question-search.ts).
INSERT OR IGNORE INTO `question_tag` (`tid`, `question_id`)
  SELECT `s`, `id` FROM `question` WHERE `s` IS NOT NULL
  UNION SELECT j.value, q.`id` FROM `question` q, json_each(q.`c`) j
  UNION SELECT j.value, q.`id` FROM `question` q, json_each(q.`t`) j
  UNION SELECT j.value, q.`id` FROM `question` q, json_each(q.`e`) j;--> statement-breakpoint
INSERT INTO `question_version` (`question_id`, `version`, `data`, `action`, `actor_id`, `actor_name`, `created_at`)
  SELECT `id`, 1, json_object('q', `q`, 'ops', json(`ops`), 'c', json(`c`), 'd', `d`, 'ca', json(`ca`), 'qt', `qt`, 's', `s`, 't', json(`t`), 'e', json(`e`), 'st', `st`, 'trans', json(`trans`), 'reason', NULL),
    'CREATE', `created_by`, NULL, `updated_at` FROM `question`;
