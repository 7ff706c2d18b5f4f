import { reachesUserbot } from 'userbot-gateway/plugin'
import { BotError } from '../answer'
import { intOf } from '../params'
import type { Method } from './call'

const UPDATES_LIMIT = 100
/** The longest long poll served (Telegram's own bound is 50 s). */
const MAX_POLL_S = 50

/** Updates and webhooks (docs/bot-api.md#updates). */
export const UPDATE_METHODS: Readonly<Record<string, Method>> = {
	// No webhook is ever set on this face yet (setWebhook is not served): there is none to delete.
	deleteWebhook: async () => true,
	getWebhookInfo: async () => ({ url: '', has_custom_certificate: false, pending_update_count: 0 }),
	getUpdates: async (call) => {
		const { params, principal, userbotId } = call
		// The key's userbot scope, as the policy reads it (its token names that one userbot).
		if (!reachesUserbot(principal, userbotId)) throw new BotError(403, 'Forbidden: userbot is not reachable')
		const limit = Math.min(Math.max(intOf(params, 'limit') ?? UPDATES_LIMIT, 1), UPDATES_LIMIT)
		const timeout = Math.min(Math.max(intOf(params, 'timeout') ?? 0, 0), MAX_POLL_S)
		return call.updates.get(userbotId, intOf(params, 'offset'), limit, timeout * 1000, call.signal)
	},
}
