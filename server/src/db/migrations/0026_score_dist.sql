CREATE TABLE `score_dist` (
	`qsid` text PRIMARY KEY NOT NULL,
	`n` integer NOT NULL,
	`t` text NOT NULL,
	`s` text NOT NULL,
	`at` integer NOT NULL,
	`rev` integer NOT NULL,
	`deleted` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`qsid`) REFERENCES `question_set`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `score_dist_rev_idx` ON `score_dist` (`rev`);