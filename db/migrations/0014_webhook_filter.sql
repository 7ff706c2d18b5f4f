-- Issue 46, event filters (docs/webhooks.md#filters): an endpoint's filter, the JSON object its owner
-- wrote (checked whole), null for none. (0013 was made beside it.)
ALTER TABLE `webhook_endpoint` ADD `filter` text;