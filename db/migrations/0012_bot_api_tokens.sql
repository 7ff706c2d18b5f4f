-- Issue 45, the Bot API face (docs/bot-api.md): a key made with `"bot_api": true` is also a Bot API
-- token `<bot_user_id>:<key>`, whose first part is the Telegram user id of its one userbot's account.
ALTER TABLE `api_key` ADD `bot_user_id` integer;