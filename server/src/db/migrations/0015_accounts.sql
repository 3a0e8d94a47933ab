ALTER TABLE `person` ADD `pending_email` text;--> statement-breakpoint
ALTER TABLE `person` ADD `terms_version` text;--> statement-breakpoint
ALTER TABLE `person` ADD `terms_accepted_at` integer;