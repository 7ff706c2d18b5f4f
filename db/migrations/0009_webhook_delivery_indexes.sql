DROP INDEX `webhook_delivery_queue`;--> statement-breakpoint
DROP INDEX `webhook_delivery_due`;--> statement-breakpoint
CREATE INDEX `webhook_delivery_endpoint` ON `webhook_delivery` (`endpoint_id`,`id`);--> statement-breakpoint
CREATE INDEX `webhook_delivery_pending` ON `webhook_delivery` (`endpoint_id`,`userbot_id`,`id`) WHERE status = 'pending';