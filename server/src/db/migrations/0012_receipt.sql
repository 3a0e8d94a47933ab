ALTER TABLE `attempt` ADD `receipt` text;--> statement-breakpoint
ALTER TABLE `exam_result` ADD `receipt` text;