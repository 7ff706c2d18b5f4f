import { KeyWebhookRefused, type KeyWebhooks, reachesUserbot } from 'userbot-gateway/plugin'
import { BotError, badRequest } from '../answer'
import { boolOf, intOf, stringOf } from '../params'
import { UPDATE_TYPES, type UpdateType } from '../update-of'
import { settingsFrom, settingsJson } from '../update-settings'
import type { Call, Method } from './call'

const UPDATES_LIMIT = 100
/** The longest long poll served (Telegram's own bound is 50 s). */
const MAX_POLL_S = 50
/** The most `allowed_updates` names read (Telegram has about 25 kinds). */
const MAX_ALLOWED = 50
const SECRET_TOKEN = /^[A-Za-z0-9_-]{1,256}$/
const MAX_URL = 2048

const CONFLICT = new BotError(
	409,
	"Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
)

/** `allowed_updates`: a list (or a JSON list in a string) of kinds; names not served are ignored, as Telegram does. */
function allowedOf(params: Record<string, unknown>): ReadonlySet<UpdateType> | undefined {
	let value = params.allowed_updates
	if (value === undefined || value === null || value === '') return undefined
	if (typeof value === 'string') {
		try {
			value = value.length > 4096 ? null : JSON.parse(value)
		} catch {
			value = null
		}
	}
	if (!Array.isArray(value) || value.length > MAX_ALLOWED || !value.every((x) => typeof x === 'string'))
		throw badRequest("can't parse allowed_updates JSON array")
	const set = new Set(UPDATE_TYPES.filter((t) => value.includes(t)))
	// An empty list: what Telegram sends by default.
	return set.size > 0 ? set : settingsFrom('{}').allowed
}

/** The token's key (a Bot API token is always one) and the view of its updates. */
function tokenOf(call: Call) {
	const keyId = call.principal.key?.id
	// The key's userbot scope, as the policy reads it (its token names that one userbot).
	if (keyId === undefined || !reachesUserbot(call.principal, call.userbotId))
		throw new BotError(403, 'Forbidden: userbot is not reachable')
	return { keyId, view: call.updates.forToken(keyId, call.userbotId) }
}

/** A change of the token's webhook is a write: a `read_only` key may not make it (BOT_API_POLICY reads). */
function writable(call: Call) {
	if (call.principal.key?.scopes.readOnly) throw new BotError(403, 'Forbidden: permission denied')
}

function hooksOf(call: Call): KeyWebhooks {
	const hooks = call.ctx.keyWebhooks()
	if (!hooks) throw badRequest('webhooks are not served by this server')
	return hooks
}

/** Updates and webhooks (docs/bot-api.md#updates, #webhooks). */
export const UPDATE_METHODS: Readonly<Record<string, Method>> = {
	getUpdates: async (call) => {
		const { params } = call
		const { keyId, view } = tokenOf(call)
		const limit = Math.min(Math.max(intOf(params, 'limit') ?? UPDATES_LIMIT, 1), UPDATES_LIMIT)
		const timeout = Math.min(Math.max(intOf(params, 'timeout') ?? 0, 0), MAX_POLL_S)
		const offset = intOf(params, 'offset')
		const allowed = allowedOf(params)
		const includeOwn = boolOf(params, 'include_own_sends')
		// While a webhook is set nothing of the call is kept, as Telegram does: 409 before any change.
		if (await call.ctx.keyWebhooks()?.get(keyId)) throw CONFLICT
		await view.configure(allowed, includeOwn)
		// A revocation of the key (or its owner) ends the wait at once (poll-ends.ts).
		const ended = call.updates.pollEnds.watch(call.principal)
		try {
			return await view.get(offset, limit, timeout * 1000, ended, call.signal)
		} finally {
			ended.release()
		}
	},

	setWebhook: async (call) => {
		const { params, principal } = call
		const { keyId, view } = tokenOf(call)
		writable(call)
		const url = stringOf(params, 'url') ?? ''
		if (url.length > MAX_URL) throw badRequest('bad webhook: the URL is too long')
		const secret = stringOf(params, 'secret_token')
		if (secret !== undefined && secret !== '' && !SECRET_TOKEN.test(secret))
			throw badRequest('secret token contains unallowed characters or is too long')
		const maxConnections = intOf(params, 'max_connections')
		if (maxConnections !== undefined && (maxConnections < 1 || maxConnections > 100))
			throw badRequest('invalid max_connections specified')
		const drop = boolOf(params, 'drop_pending_updates') ?? false
		await view.configure(allowedOf(params), boolOf(params, 'include_own_sends'))
		const hooks = hooksOf(call)
		// As Telegram: an empty URL removes the webhook.
		if (url === '') {
			await hooks.remove(keyId)
			await view.hooked()
			return true
		}
		const settings = await view.settings()
		try {
			await hooks.set(
				{ keyId, companyId: principal.companyId ?? 0, userbotId: call.userbotId },
				{
					url,
					secretToken: secret || null,
					settings: settingsJson(settings, maxConnections ? { max_connections: maxConnections } : {}),
				},
				drop,
			)
		} catch (err) {
			if (err instanceof KeyWebhookRefused) throw badRequest(`bad webhook: ${err.message}`)
			throw err
		}
		// What getUpdates held is not handed out again: from now on the webhook gets the updates.
		await view.confirmAll()
		await view.hooked()
		return true
	},

	deleteWebhook: async (call) => {
		const { keyId, view } = tokenOf(call)
		// What the webhook had not delivered goes with it; what it delivered is not handed out again.
		const drop = boolOf(call.params, 'drop_pending_updates') ?? false
		const hooks = call.ctx.keyWebhooks()
		const had = hooks ? await hooks.get(keyId) : null
		// With none set nothing changes (a read_only token's bot.start() asks for this too).
		if (had) writable(call)
		if (hooks && had) await hooks.remove(keyId)
		if (had || drop) await view.confirmAll()
		await view.hooked()
		return true
	},

	getWebhookInfo: async (call) => {
		const { keyId } = tokenOf(call)
		const hook = await call.ctx.keyWebhooks()?.get(keyId)
		if (!hook) return { url: '', has_custom_certificate: false, pending_update_count: 0 }
		const s = settingsFrom(hook.settings)
		return {
			url: hook.url,
			has_custom_certificate: false,
			pending_update_count: hook.pending,
			...(hook.lastErrorAt !== null
				? {
						last_error_date: Math.floor(hook.lastErrorAt / 1000),
						last_error_message: hook.lastError ?? '',
					}
				: {}),
			...(s.maxConnections ? { max_connections: s.maxConnections } : {}),
			allowed_updates: [...s.allowed],
		}
	},
}
