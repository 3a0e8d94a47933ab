ALTER TABLE `payment_event` ADD `merchant_order_id` text;--> statement-breakpoint
ALTER TABLE `payment_event` ADD `pg_order_id` text;--> statement-breakpoint
ALTER TABLE `payment_event` ADD `processed_at` integer;--> statement-breakpoint
ALTER TABLE `payment_event` ADD `attempts` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `payment_event` ADD `next_attempt_at` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `payment_event` ADD `last_error` text;--> statement-breakpoint
CREATE INDEX `payment_event_waiting_idx` ON `payment_event` (`next_attempt_at`) WHERE "payment_event"."processed_at" is null;--> statement-breakpoint
-- Events stored before the inbox were processed in the transaction that stored them.
UPDATE `payment_event` SET `processed_at` = `received_at` WHERE `processed_at` IS NULL;
