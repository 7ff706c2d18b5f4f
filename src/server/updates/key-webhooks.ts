/**
 * A webhook endpoint owned by one API key, scoped to the key's one userbot: what the Bot API face's
 * setWebhook makes (docs/bot-api.md#webhooks). The webhooks plugin serves it when loaded
 * (`ctx.registerKeyWebhooks`); the face finds it with `ctx.keyWebhooks()`, so neither plugin imports
 * the other. Its events are those `ctx.updates.emit` hands over as `KEY_WEBHOOK_EVENT` with
 * `data.key_id` its key: the body delivered is `data.update`, as it is (the Bot API's `Update`), with
 * the header `X-Telegram-Bot-Api-Secret-Token` when a secret token was set. Everything else is the
 * webhooks' own: the outbox, retries, the address policy, replay, the deliveries listing.
 */
export const KEY_WEBHOOK_EVENT = 'bot_api.update'

export interface KeyWebhookOwner {
	keyId: number
	companyId: number
	/** The key's one userbot: the endpoint names it alone. */
	userbotId: number
}

export interface KeyWebhookSetting {
	url: string
	/** Sent as `X-Telegram-Bot-Api-Secret-Token`; null: no such header. */
	secretToken: string | null
	/** The face's own settings of the endpoint (JSON), kept with it and handed back as they are. */
	settings: string
}

export interface KeyWebhookState {
	url: string
	settings: string
	/** Deliveries not made yet (with the JetStream outbox: 0, not counted there). */
	pending: number
	/** The last attempt that failed, when the last attempt did (Unix ms), and why in our words. */
	lastErrorAt: number | null
	lastError: string | null
}

/** The URL was refused by the address policy (docs/webhooks.md): `message` says why, in our words. */
export class KeyWebhookRefused extends Error {}

export interface KeyWebhooks {
	/** Sets the key's one endpoint (replacing the one it had); `dropPending` drops what waits for the old one. */
	set(owner: KeyWebhookOwner, setting: KeyWebhookSetting, dropPending: boolean): Promise<void>
	/** Removes the key's endpoint, if any; its pending deliveries go with it. */
	remove(keyId: number): Promise<void>
	/** The key's endpoint now, or null. */
	get(keyId: number): Promise<KeyWebhookState | null>
	/** Every key endpoint whose key still holds (not revoked, not expired), for the face's emission. */
	list(): Promise<Array<{ keyId: number; userbotId: number; settings: string }>>
}
