-- Sessions kept their CSRF token, JWT pair and family B's main-server pair in clear (issue 43); from
-- now on they are sealed under a key derived from the cookie, which is stored nowhere, so the rows of
-- today cannot be converted: they end, and their users get 401 "Session has expired, please log in
-- again." at their next request (docs/rest.md#secrets-at-rest). Their refresh families are revoked
-- first, so that the tokens a backup made before the upgrade holds are refused too: each row's `fam`
-- is read from its refresh token's payload (base64url JSON, decoded four characters at a time).
UPDATE `refresh_token` SET `state` = 'revoked'
WHERE `state` IN ('active', 'rotated') AND `family_id` IN (
	WITH RECURSIVE
		`b64`(`alphabet`) AS (SELECT 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'),
		`jwt`(`payload`) AS (
			SELECT substr(`rest`, 1, instr(`rest`, '.') - 1)
			FROM (SELECT substr(`refresh_token`, instr(`refresh_token`, '.') + 1) AS `rest` FROM `session`)
		),
		`step`(`rest`, `out`) AS (
			SELECT `payload`, '' FROM `jwt`
			UNION ALL
			SELECT
				substr(`rest`, 5),
				`out`
					|| char((max(instr(`alphabet`, substr(`rest`, 1, 1)) - 1, 0) << 2) | (max(instr(`alphabet`, substr(`rest`, 2, 1)) - 1, 0) >> 4))
					|| CASE WHEN length(`rest`) > 2
						THEN char(((max(instr(`alphabet`, substr(`rest`, 2, 1)) - 1, 0) & 15) << 4) | (max(instr(`alphabet`, substr(`rest`, 3, 1)) - 1, 0) >> 2)) ELSE '' END
					|| CASE WHEN length(`rest`) > 3
						THEN char(((max(instr(`alphabet`, substr(`rest`, 3, 1)) - 1, 0) & 3) << 6) | max(instr(`alphabet`, substr(`rest`, 4, 1)) - 1, 0)) ELSE '' END
			FROM `step`, `b64`
			WHERE `rest` <> ''
		)
	SELECT json_extract(`out`, '$.fam') FROM `step` WHERE `rest` = '' AND json_valid(`out`)
);--> statement-breakpoint
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
