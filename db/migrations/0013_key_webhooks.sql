-- Issue 45, the Bot API face's setWebhook (docs/bot-api.md#webhooks): an API key's own endpoint, of
-- its one userbot, gone with the key; `key_settings` keeps the face's settings of it (JSON).
ALTER TABLE `webhook_endpoint` ADD `key_id` integer REFERENCES api_key(id) ON DELETE cascade;--> statement-breakpoint
ALTER TABLE `webhook_endpoint` ADD `key_settings` text;--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_endpoint_key` ON `webhook_endpoint` (`key_id`);
