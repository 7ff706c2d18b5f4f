-- Issue 46, event filters (docs/webhooks.md#filters): an endpoint's filter, the JSON object its owner
-- wrote (checked whole), null for none. Numbered 0014: 0013 is kept for a migration made beside it.
ALTER TABLE `webhook_endpoint` ADD `filter` text;