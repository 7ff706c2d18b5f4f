import { type AppContext, KEY_WEBHOOK_EVENT, type ObservedEvent } from 'userbot-gateway/plugin'
import { createJournal, type Journal, type Kept } from './journal'
import { botMessageId } from './objects'
import { createPollEnds } from './poll-ends'
import { type Entry, entriesOf, filled, type Intake } from './update-intake'
import { TD_KINDS } from './update-of'
import { createRegistry } from './update-registry'
import { createTokenStates, latestFrom, take, typeOf, wanted } from './update-tokens'
import { type BufferParts, createTokenView, createWaiters } from './update-view'

/**
 * What getUpdates hands out and setWebhook delivers (docs/bot-api.md#updates): each userbot's
 * updates as Bot API `Update`s, numbered by the userbot's live-update sequence (`update_id`, so an
 * offset resumes exactly; past the last one kept after a restart, when the live numbering starts
 * again), written to the journal (journal.ts) once decided, so a restart loses none.
 *
 * Sent through this face: a message this server sends reaches TDLib's client as a temporary message
 * (`sending_state`, left out) and then as the sent one (`updateMessageSendSucceeded`). While a
 * sending or editing method of this face runs for the userbot, such a message (and any edit) waits
 * undecided; the method's answer names the messages it sent, which are the face's own, and once no
 * sending method runs the rest are not (another face of the gateway sent them). The face's own are
 * left out unless the token asked for them (`include_own_sends`), so an echo bot does not answer
 * itself. Nothing after an undecided update is handed out before it is decided: the order of
 * `update_id`s is the order of delivery.
 */

/** A message undecided longer than this (a sending method that never ends) is taken as not the face's. */
const UNDECIDED_MS = 30_000

/** The label of the one TDLib request the face sends outside its commands (index.ts `labels`). */
export const EDITED_LABEL = 'bot-api:edited'
/** How long an edit waits for its whole message; past it, it goes as it is. */
const FILL_TIMEOUT_MS = 5000

interface UserbotBuffer extends Intake {
	/** Numbered, not handed out yet (the first may be undecided). */
	pending: Entry[]
	/** The last `update_id` given (kept or not): the next is past it, whatever the live sequence says. */
	last: number
	/** What is added to the live sequence number to make the `update_id`. */
	shift: number
	/** The last `update_id` handed out (to the journal and the key webhooks). */
	handed: number
}

/**
 * The `update_id` of live number `seq`: `seq` itself, unless that was given already (a restart, or
 * the update before it made more than one: a member's change is a `message` and a `chat_member`).
 * Called once per Bot API update, so each has its own: a library's `offset` confirms only what it got.
 */
function numberOf(b: UserbotBuffer, seq: number) {
	if (seq + b.shift <= b.last) b.shift = b.last + 1 - seq
	b.last = seq + b.shift
	return b.last
}

/** An entry as the journal keeps it. */
const keptOf = (userbotId: number, e: Entry): Kept => ({
	userbotId,
	updateId: e.updateId,
	part: e.part,
	at: e.at,
	type: e.type,
	member: e.member ?? null,
	face: e.face === true,
	body: JSON.stringify(e.body),
})

interface Deps {
	ctx: AppContext
	journal: Journal
	registry: ReturnType<typeof createRegistry>
	waiters: ReturnType<typeof createWaiters>
}

/** Hands the decided entries, in order, to the key webhooks and the journal; wakes the long polls once written. */
function release({ ctx, journal, registry, waiters }: Deps, userbotId: number, b: UserbotBuffer) {
	const now = Date.now()
	for (const e of b.pending)
		if (e.face === undefined && (b.sending === 0 || now - e.at > UNDECIDED_MS)) e.face = false
	const keys = registry.hooksOf(userbotId)
	let handed = 0
	for (const e of b.pending) {
		if (e.face === undefined || e.fill) break
		handed++
		for (const [keyId, s] of keys ?? [])
			if (wanted(e, s, s.selfId))
				ctx.updates.emit(userbotId, KEY_WEBHOOK_EVENT, {
					key_id: keyId,
					update: { update_id: e.updateId, [typeOf(e, s.selfId)]: e.body },
				})
		journal.add(keptOf(userbotId, e))
	}
	if (handed === 0) return
	b.handed = (b.pending[handed - 1] as Entry).updateId
	b.pending.splice(0, handed)
	void journal.flush().then(() => waiters.wake(userbotId))
}

/**
 * The messages a sending method's answer names (`Message`s: `chat.id` and `message_id`) are the
 * face's own, and so are those it named itself (`named`: a copy answers only a `MessageId`).
 */
function markOwn(b: UserbotBuffer, result: unknown, named: readonly string[]) {
	const mine = new Set<string>(named)
	for (const m of Array.isArray(result) ? result : [result]) {
		const x = m as { message_id?: unknown; chat?: { id?: unknown } } | undefined
		if (typeof x?.message_id === 'number' && x.chat) mine.add(`${x.chat.id}:${x.message_id}`)
	}
	for (const e of b.pending) if (e.face === undefined && e.key && mine.has(e.key)) e.face = true
}

/** Each userbot's buffer, made on first use, numbering past what the journal keeps (`known`). */
function createBuffers() {
	const buffers = new Map<number, UserbotBuffer>()
	let lastIds = new Map<number, number>()
	return {
		of(userbotId: number): UserbotBuffer {
			let b = buffers.get(userbotId)
			if (!b) {
				const last = lastIds.get(userbotId) ?? 0
				b = { pending: [], seen: new Map(), sending: 0, last, shift: 0, handed: last }
				buffers.set(userbotId, b)
			}
			return b
		},
		/** The last `update_id` the journal keeps of each userbot: a buffer made already numbers past it too. */
		known(last: Map<number, number>) {
			lastIds = last
			for (const [userbotId, b] of buffers) {
				b.last = Math.max(b.last, last.get(userbotId) ?? 0)
				b.handed = Math.max(b.handed, last.get(userbotId) ?? 0)
			}
		},
	}
}

/**
 * Observes the hub's events: until the journal's numbers and the tokens are read, they wait (in
 * order) for them. Resolves once read.
 */
async function observeOnceRead(
	{ ctx, journal, registry }: Deps,
	buffers: ReturnType<typeof createBuffers>,
	handle: (event: ObservedEvent) => void,
) {
	let early: ObservedEvent[] | null = []
	ctx.onClose(ctx.updates.observe((event) => (early ? early.push(event) : handle(event))))
	ctx.onClose(() => journal.close())
	try {
		buffers.known(await journal.lastIds())
		await registry.refresh()
	} catch (err) {
		ctx.log.warn('bot api: reading the kept updates failed', { error: errorText(err) })
	}
	const queued = early
	early = null
	for (const event of queued) handle(event)
}

/** An edit of a message not seen here: the whole message from TDLib, then the updates after it go on. */
function fill(deps: Deps, userbotId: number, b: UserbotBuffer, e: Entry) {
	const { ctx } = deps
	const at = e.fill as NonNullable<Entry['fill']>
	const asked = ctx.runtime
		? ctx.runtime.invoke(
				userbotId,
				{ _: 'getMessage', chat_id: at.chatId, message_id: at.messageId },
				{ label: EDITED_LABEL, timeoutMs: FILL_TIMEOUT_MS },
			)
		: Promise.resolve(undefined)
	asked
		.then(
			(message) => filled(b, e, message as Record<string, unknown> | undefined),
			(err: unknown) => {
				ctx.log.warn('bot api: an edited message could not be read', { userbotId, error: errorText(err) })
				filled(b, e, undefined)
			},
		)
		.finally(() => release(deps, userbotId, b))
}

export function createUpdateBuffer(ctx: AppContext) {
	const journal = createJournal(ctx)
	const registry = createRegistry(ctx, journal)
	const waiters = createWaiters()
	const deps: Deps = { ctx, journal, registry, waiters }
	const buffers = createBuffers()
	const bufferOf = buffers.of
	ctx.updates.want(buffers, [...TD_KINDS])

	const handle = (event: ObservedEvent) => {
		if (!event.live || !registry.keeps(event.userbotId)) return
		const b = bufferOf(event.userbotId)
		const made = entriesOf(b, event)
		if (made.length === 0) return
		const at = Date.now()
		made.forEach((m, part) => {
			const e: Entry = { ...m, updateId: numberOf(b, event.seq), part, at }
			b.pending.push(e)
			if (e.fill) fill(deps, event.userbotId, b, e)
		})
		release(deps, event.userbotId, b)
	}

	const ready = observeOnceRead(deps, buffers, handle)

	const parts: BufferParts = {
		states: createTokenStates(journal),
		ready,
		refresh: registry.refresh,
		take: (asker, s, limit) => take(journal, asker, s, limit, Date.now()),
		latestFrom: (asker, s, n) => latestFrom(journal, asker, s, n, Date.now()),
		version: waiters.version,
		handed: (userbotId) => bufferOf(userbotId).handed,
		wait: waiters.wait,
	}

	const pollEnds = createPollEnds(ctx)
	ctx.metrics.gauge('ubg_bot_api_long_polls', 'getUpdates long polls waiting.', [], (set) =>
		set(pollEnds.waiting),
	)

	return {
		/** The long polls waiting, ended at once by a revocation of their key (poll-ends.ts). */
		pollEnds,

		/** A token's key, its userbot and its account's user id (the token's first part): index.ts, at each request. */
		introduce: registry.introduce,

		/** The view of one token's updates (update-view.ts). */
		forToken: (keyId: number, userbotId: number) =>
			createTokenView(parts, { keyId, userbotId, selfId: registry.selfOf(keyId) }),

		/**
		 * Runs a sending method of the face: the messages this server sends meanwhile wait, and those
		 * its answer names (`Message`s: `chat.id` and `message_id`) or it names in `named` (`messageKey`s
		 * of what it sent, filled while it runs) are the face's own.
		 */
		async sending<T>(userbotId: number, run: () => Promise<T>, named: readonly string[] = []): Promise<T> {
			const b = bufferOf(userbotId)
			b.sending++
			let result: T | undefined
			try {
				result = await run()
				return result
			} finally {
				b.sending--
				markOwn(b, result, named)
				release(deps, userbotId, b)
			}
		},
	}
}

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err))

export type UpdateBuffer = ReturnType<typeof createUpdateBuffer>
export type TokenUpdates = ReturnType<UpdateBuffer['forToken']>
export { defaultSettings, settingsFrom, settingsJson, type TokenSettings } from './update-settings'
export { botMessageId }
