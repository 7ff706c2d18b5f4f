ALTER TABLE `userbot` ADD `proxy` text;--> statement-breakpoint
ALTER TABLE `userbot` ADD `proxy_secret` text;--> statement-breakpoint
ALTER TABLE `userbot` ADD `proxy_check` text;