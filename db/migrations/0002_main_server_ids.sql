DROP INDEX `user_profile_main_server_id`;--> statement-breakpoint
CREATE UNIQUE INDEX `user_profile_main_server_id_unique` ON `user_profile` (`main_server_id`);--> statement-breakpoint
ALTER TABLE `company` ADD `main_server_id` integer;--> statement-breakpoint
CREATE UNIQUE INDEX `company_main_server_id_unique` ON `company` (`main_server_id`);