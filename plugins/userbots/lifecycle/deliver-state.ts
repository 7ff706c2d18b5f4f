import { and, eq, isNull } from 'drizzle-orm'
import { type AppContext, userbot } from 'userbot-gateway/plugin'
import { phoneFromDetail } from './auth-states'
import { pushState } from './push-state'

/** How long reading the account's own phone number (`getMe`, answered from TDLib's cache) may take. */
const GET_ME_MS = 5_000

export type DeliveryContext = Pick<AppContext, 'db' | 'log' | 'publish' | 'runtime'>

/** One state to store and push, as the owner saw it arrive. */
export interface StateDelivery {
	userbotId: number
	/** The company, when the owner knows it; looked up on the live row otherwise. */
	companyId: number | undefined
	state: string
	detail: Record<string, unknown> | undefined
	/** `Ready` right after a log-in step: the account's own number is read and stored. */
	loggedIn: boolean
	/** The owner's word, asked again after each wait: a deleted userbot's state is pushed only when closing. */
	pushable(): boolean
	/** A company looked up here, for the owner to keep. */
	found(companyId: number): void
}

/**
 * Stores a state on the userbot's row, then pushes it: a client that reads the userbot on hearing
 * the state finds it (and, after a log-in, the account's number) already there. A failed write still
 * pushes; a userbot deleted meanwhile is neither stored nor pushed (unless closing, by `pushable`).
 */
export async function deliverState(ctx: DeliveryContext, d: StateDelivery): Promise<void> {
	try {
		let companyId = d.companyId
		if (companyId === undefined) {
			const [row] = await ctx.db
				.select({ companyId: userbot.companyId })
				.from(userbot)
				.where(and(eq(userbot.id, d.userbotId), isNull(userbot.deletedAt)))
			if (!row) return
			companyId = row.companyId
			d.found(companyId)
		}
		if (!d.pushable()) return
		await store(ctx, d)
		// Deleted while it was stored (the number is asked of TDLib first): not pushed either.
		if (!d.pushable()) return
		pushState(ctx.publish, companyId, d.userbotId, d.state, d.detail)
	} catch (err) {
		ctx.log.warn('could not push an authorization state', {
			userbotId: d.userbotId,
			state: d.state,
			error: err instanceof Error ? err : String(err),
		})
	}
}

/** A deleted userbot's closing state: pushed to the company it belonged to, if known, never stored. */
export function announceState(ctx: DeliveryContext, d: StateDelivery): void {
	if (d.companyId !== undefined) pushState(ctx.publish, d.companyId, d.userbotId, d.state, d.detail)
}

async function store(ctx: DeliveryContext, d: StateDelivery): Promise<void> {
	try {
		let phone = phoneFromDetail(d.detail)?.replace(/\D/g, '')
		// A log-in just finished (by code, password or QR): the account's own number is the truth.
		if (d.loggedIn) phone = (await ownPhone(ctx, d.userbotId)) ?? phone
		await ctx.db
			.update(userbot)
			.set(phone ? { authorizationState: d.state, phoneNumber: phone } : { authorizationState: d.state })
			.where(and(eq(userbot.id, d.userbotId), isNull(userbot.deletedAt)))
	} catch (err) {
		ctx.log.warn('could not record an authorization state', {
			userbotId: d.userbotId,
			state: d.state,
			error: err instanceof Error ? err : String(err),
		})
	}
}

/** The logged-in account's phone number (digits), or null when TDLib cannot say. */
async function ownPhone(ctx: DeliveryContext, userbotId: number): Promise<string | null> {
	const runtime = ctx.runtime
	if (!runtime) return null
	try {
		const me = await runtime.invoke(
			userbotId,
			{ _: 'getMe' },
			{ timeoutMs: GET_ME_MS, label: 'userbots:ready' },
		)
		const digits = (me.phone_number ?? '').replace(/\D/g, '')
		return digits || null
	} catch (err) {
		ctx.log.debug('could not read the phone number of a logged-in userbot', { userbotId, error: String(err) })
		return null
	}
}
