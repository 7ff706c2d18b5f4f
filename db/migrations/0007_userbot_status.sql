ALTER TABLE `userbot` ADD `status` text DEFAULT 'active' NOT NULL;--> statement-breakpoint
ALTER TABLE `userbot` ADD `status_until` integer;