CREATE TABLE `file_cache` (
	`userbot_id` integer NOT NULL,
	`file_id` integer NOT NULL,
	`size` integer NOT NULL,
	`used_at` integer NOT NULL,
	PRIMARY KEY(`userbot_id`, `file_id`),
	FOREIGN KEY (`userbot_id`) REFERENCES `userbot`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `file_cache_used` ON `file_cache` (`userbot_id`,`used_at`);