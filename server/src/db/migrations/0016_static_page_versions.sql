CREATE TABLE `static_page_version` (
	`key` text NOT NULL,
	`lang` text NOT NULL,
	`version` integer NOT NULL,
	`html` text NOT NULL,
	`action` text NOT NULL,
	`restored_from` integer,
	`actor_id` text,
	`actor_name` text,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`key`, `lang`, `version`),
	FOREIGN KEY (`actor_id`) REFERENCES `person`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
-- Hand-written: each language an earlier save wrote becomes that language's version 1 (docs/admin.md: Static pages).
INSERT INTO `static_page_version` (`key`, `lang`, `version`, `html`, `action`, `actor_id`, `created_at`)
SELECT `key`, 'en', 1, json_extract(`content`, '$.en'), 'SAVE', `updated_by`, `updated_at` FROM `static_page` WHERE trim(json_extract(`content`, '$.en')) <> '';
--> statement-breakpoint
INSERT INTO `static_page_version` (`key`, `lang`, `version`, `html`, `action`, `actor_id`, `created_at`)
SELECT `key`, 'hi', 1, json_extract(`content`, '$.hi'), 'SAVE', `updated_by`, `updated_at` FROM `static_page` WHERE trim(json_extract(`content`, '$.hi')) <> '';
