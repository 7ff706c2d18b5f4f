-- Issue 45, the Bot API face's getUpdates across a restart (docs/bot-api.md#updates): each userbot's
-- decided updates (kept 24 h, pruned once confirmed) and each token's offset and settings.
CREATE TABLE `bot_api_token` (
	`key_id` integer PRIMARY KEY NOT NULL,
	`userbot_id` integer NOT NULL,
	`confirmed` integer DEFAULT 0 NOT NULL,
	`settings` text NOT NULL,
	FOREIGN KEY (`key_id`) REFERENCES `api_key`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `bot_api_update` (
	`userbot_id` integer NOT NULL,
	`update_id` integer NOT NULL,
	`part` integer DEFAULT 0 NOT NULL,
	`at` integer NOT NULL,
	`type` text,
	`member` integer,
	`face` integer DEFAULT false NOT NULL,
	`body` text NOT NULL,
	PRIMARY KEY(`userbot_id`, `update_id`, `part`),
	FOREIGN KEY (`userbot_id`) REFERENCES `userbot`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `bot_api_update_at` ON `bot_api_update` (`at`);