-- Issue 43, no bearer secret at rest (docs/rest.md#secrets-at-rest). Sessions kept their CSRF token,
-- JWT pair and family B's main-server pair in clear, and refresh tokens were known by their jti and
-- family as the tokens carry them; from now on a session's secrets are sealed under a key derived
-- from its cookie, which is stored nowhere, and refresh rows hold SHA-256 hashes, which SQL cannot
-- compute. Neither can be converted here, so both end: the users of a session get 401 "Session has
-- expired, please log in again." at their next request, and a pair from token/ is refused (401) at
-- its next use or refresh, so its client asks token/ again. What a backup made before the upgrade
-- holds is refused with them.
DELETE FROM `refresh_token`;--> statement-breakpoint
DROP TABLE `session`;--> statement-breakpoint
CREATE TABLE `session` (
	`id_hash` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`sealed` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `user_profile`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `session_user` ON `session` (`user_id`);
