ALTER TABLE `donation` ADD `country` text;--> statement-breakpoint
ALTER TABLE `trust` ADD `fc_share_cap_bps` integer DEFAULT 2000 NOT NULL;