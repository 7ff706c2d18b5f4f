CREATE TABLE `member_grant` (
	`user_id` integer NOT NULL,
	`permission` text NOT NULL,
	`granted_by` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`user_id`, `permission`),
	FOREIGN KEY (`user_id`) REFERENCES `user_profile`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`granted_by`) REFERENCES `user_profile`(`id`) ON UPDATE no action ON DELETE set null
);
