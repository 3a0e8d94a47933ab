CREATE TABLE `sms_inbound` (
	`provider` text NOT NULL,
	`provider_message_id` text NOT NULL,
	`sender` text NOT NULL,
	`received_at` integer NOT NULL,
	`handled` integer DEFAULT false NOT NULL,
	PRIMARY KEY(`provider`, `provider_message_id`)
);
--> statement-breakpoint
ALTER TABLE `outbox` ADD `provider` text;--> statement-breakpoint
ALTER TABLE `outbox` ADD `provider_message_id` text;--> statement-breakpoint
ALTER TABLE `outbox` ADD `delivery_state` text;--> statement-breakpoint
ALTER TABLE `outbox` ADD `delivered_at` integer;--> statement-breakpoint
ALTER TABLE `outbox` ADD `person_id` text;--> statement-breakpoint
ALTER TABLE `outbox` ADD `kind` text;--> statement-breakpoint
ALTER TABLE `outbox` ADD `lang` text;--> statement-breakpoint
ALTER TABLE `outbox` ADD `pending_secret` text;--> statement-breakpoint
ALTER TABLE `outbox` ADD `fallback_at` integer;--> statement-breakpoint
CREATE INDEX `outbox_provider_message_idx` ON `outbox` (`provider`,`provider_message_id`);--> statement-breakpoint
CREATE INDEX `outbox_fallback_idx` ON `outbox` (`created_at`) WHERE "outbox"."pending_secret" is not null;