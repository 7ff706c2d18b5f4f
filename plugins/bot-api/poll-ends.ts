import { type AppContext, keyFamily, type Principal } from 'userbot-gateway/plugin'

/** Why a long poll was ended from outside: its key revoked, or its owner's profile changed. */
export type PollEndReason = 'revoked' | 'changed'

/** One waiting long poll's watch: `signal` aborts when a revocation names its key or its owner. */
export interface PollEnd {
	readonly signal: AbortSignal
	/** Set once ended from outside; undefined while the token holds. */
	readonly why: PollEndReason | undefined
	release(): void
}

interface Watch {
	controller: AbortController
	why: PollEndReason | undefined
}

/**
 * The getUpdates long polls waiting now, by what a revocation names (docs/bot-api.md#the-token): the
 * key's family (`key:<id>`, revoked through `/api/keys/`) and its owner's user id. The key's
 * revocation ends each at once, answered 401 Unauthorized with nothing handed out. Anything that
 * names the owner (a password reset, a removal from the company, a deactivation, a grant changed)
 * ends it at once with no updates: whether the key still holds is the policy's to say at the
 * library's next poll (401 then if it does not), so a bot whose key holds keeps polling (a 401
 * stops grammY's `bot.start()`). Revocations from other gateways come through the same
 * listener (the bus applies them to this gateway's cache, src/runtime/bus/invalidation.ts).
 */
export function createPollEnds(ctx: AppContext) {
	const byName = new Map<string, Set<Watch>>()
	const end = (name: string, why: PollEndReason) => {
		for (const w of byName.get(name) ?? []) {
			w.why ??= why
			w.controller.abort()
		}
	}
	ctx.onClose(
		ctx.auth.onRevoked((r) => {
			if ('family' in r) end(`f:${r.family}`, 'revoked')
			// The owner's change (a reset, a removal, a grant): the next poll's admission decides.
			else if ('userId' in r) end(`u:${r.userId}`, 'changed')
		}),
	)
	let waiting = 0
	return {
		/** Long polls waiting now (the `ubg_bot_api_long_polls` gauge). */
		get waiting() {
			return waiting
		},
		/** Watches a poll of `principal` (a Bot API token's key) until `release`. */
		watch(principal: Principal): PollEnd {
			const w: Watch = { controller: new AbortController(), why: undefined }
			const names = [`u:${principal.userId}`]
			if (principal.key) names.push(`f:${keyFamily(principal.key.id)}`)
			for (const name of names) {
				const set = byName.get(name)
				if (set) set.add(w)
				else byName.set(name, new Set([w]))
			}
			waiting++
			let released = false
			return {
				signal: w.controller.signal,
				get why() {
					return w.why
				},
				release() {
					if (released) return
					released = true
					waiting--
					for (const name of names) {
						const set = byName.get(name)
						set?.delete(w)
						if (set?.size === 0) byName.delete(name)
					}
				},
			}
		},
	}
}
