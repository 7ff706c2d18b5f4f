import { type AppContext, KEY_WEBHOOK_EVENT, type ObservedEvent } from 'userbot-gateway/plugin'
import { createJournal, type Journal } from './journal'
import { botMessageId } from './objects'
import { type Entry, entriesOf, type Intake } from './update-intake'
import { TD_KINDS } from './update-of'
import { settingsFrom, type TokenSettings } from './update-settings'
import {
	type Asker,
	createTokenStates,
	latestFrom,
	type TokenState,
	take,
	typeOf,
	wanted,
} from './update-tokens'
import { createTokenView } from './update-view'

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
/** How often the key webhooks and tokens are read again, and (every PRUNE_EVERY) the journal pruned. */
const REFRESH_MS = 5000
const PRUNE_EVERY = 12

interface UserbotBuffer extends Intake {
	/** Numbered, not handed out yet (the first may be undecided). */
	pending: Entry[]
	/** The last `update_id` given (kept or not): the next is past it, whatever the live sequence says. */
	last: number
	/** What is added to the live sequence number to make the `update_id`. */
	shift: number
	/** The last `update_id` handed out (to the journal and the key webhooks). */
	handed: number
	/** Changes each time updates were written: a long poll that read before it reads again. */
	version: number
}

type HookSettings = TokenSettings & { selfId: number }

export function createUpdateBuffer(ctx: AppContext) {
	const journal = createJournal(ctx)
	const buffers = new Map<number, UserbotBuffer>()
	const waiters = new Map<number, Set<() => void>>()
	const states = createTokenStates(journal)
	/** The key webhooks of each userbot, with their settings (refreshed from the webhooks plugin). */
	let hooks = new Map<number, Map<number, HookSettings>>()
	/** Each userbot's account user id by token (its key), as its tokens name it. */
	const selves = new Map<number, number>()
	/** The userbots with a Bot API token, by key: only theirs are kept. */
	let tokens = new Map<number, number>()
	let kept = new Set<number>()
	let lastIds = new Map<number, number>()
	/** Tokens seen at a request since the last refresh (a key made a moment ago). */
	const introduced = new Map<number, number>()
	ctx.updates.want(buffers, [...TD_KINDS])

	const bufferOf = (userbotId: number): UserbotBuffer => {
		let b = buffers.get(userbotId)
		if (!b) {
			const last = lastIds.get(userbotId) ?? 0
			b = { pending: [], seen: new Map(), sending: 0, last, shift: 0, handed: last, version: 0 }
			buffers.set(userbotId, b)
		}
		return b
	}
	/** The `update_id` of live number `seq`: `seq` itself, unless that was given already (a restart). */
	const numberOf = (b: UserbotBuffer, seq: number) => {
		if (seq + b.shift <= b.last) b.shift = b.last + 1 - seq
		b.last = seq + b.shift
		return b.last
	}

	const handle = (event: ObservedEvent) => {
		if (!event.live || !kept.has(event.userbotId)) return
		const b = bufferOf(event.userbotId)
		const made = entriesOf(b, event)
		if (made.length === 0) return
		const updateId = numberOf(b, event.seq)
		const at = Date.now()
		made.forEach((m, part) => {
			b.pending.push({ ...m, updateId, part, at })
		})
		release(event.userbotId, b)
	}

	/** Hands the decided entries, in order, to the key webhooks and the journal; wakes the long polls once written. */
	const release = (userbotId: number, b: UserbotBuffer) => {
		const now = Date.now()
		for (const e of b.pending)
			if (e.face === undefined && (b.sending === 0 || now - e.at > UNDECIDED_MS)) e.face = false
		const keys = hooks.get(userbotId)
		let handed = 0
		for (const e of b.pending) {
			if (e.face === undefined) break
			handed++
			for (const [keyId, s] of keys ?? [])
				if (wanted(e, s, s.selfId))
					ctx.updates.emit(userbotId, KEY_WEBHOOK_EVENT, {
						key_id: keyId,
						update: { update_id: e.updateId, [typeOf(e, s.selfId)]: e.body },
					})
			journal.add({
				...e,
				userbotId,
				type: e.type,
				member: e.member ?? null,
				face: e.face,
				body: JSON.stringify(e.body),
			})
		}
		if (handed === 0) return
		b.handed = (b.pending[handed - 1] as Entry).updateId
		b.pending.splice(0, handed)
		void journal.flush().then(() => {
			b.version++
			for (const fn of waiters.get(userbotId) ?? []) fn()
		})
	}

	// Until the journal's numbers and the tokens are read, updates wait (in order) for them.
	let early: ObservedEvent[] | null = []
	const ready = (async () => {
		try {
			lastIds = await journal.lastIds()
			// A buffer made meanwhile (a request came first) numbers past what is kept too.
			for (const [userbotId, b] of buffers) {
				const last = lastIds.get(userbotId) ?? 0
				b.last = Math.max(b.last, last)
				b.handed = Math.max(b.handed, last)
			}
			await refresh()
		} catch (err) {
			ctx.log.warn('bot api: reading the kept updates failed', { error: errorText(err) })
		}
		const queued = early ?? []
		early = null
		for (const event of queued) handle(event)
	})()
	const stop = ctx.updates.observe((event) => (early ? early.push(event) : handle(event)))
	ctx.onClose(stop)
	ctx.onClose(() => journal.flush())

	/** The key webhooks and the Bot API tokens as the database has them now (a change made on another gateway too). */
	async function refresh() {
		const [list, found] = await Promise.all([ctx.keyWebhooks()?.list() ?? [], journal.tokens()])
		for (const [keyId, userbotId] of introduced)
			if (found.get(keyId) === userbotId) introduced.delete(keyId)
			else found.set(keyId, userbotId)
		tokens = found
		kept = new Set(found.values())
		const next = new Map<number, Map<number, HookSettings>>()
		for (const h of list) {
			const selfId = selves.get(h.keyId)
			if (selfId === undefined) continue
			const of = next.get(h.userbotId) ?? new Map()
			of.set(h.keyId, { ...settingsFrom(h.settings), selfId })
			next.set(h.userbotId, of)
		}
		hooks = next
	}
	let ticks = 0
	const timer = setInterval(() => {
		const prune = ++ticks % PRUNE_EVERY === 0 ? journal.prune(Date.now(), [...kept]) : undefined
		Promise.all([refresh(), prune]).catch((err: unknown) =>
			ctx.log.warn('bot api: reading the tokens failed', { error: errorText(err) }),
		)
	}, REFRESH_MS)
	ctx.onClose(() => clearInterval(timer))

	const wait = (userbotId: number, since: number, ms: number, signal: AbortSignal) =>
		new Promise<void>((resolve) => {
			const set = waiters.get(userbotId) ?? new Set()
			waiters.set(userbotId, set)
			const done = () => {
				clearTimeout(clock)
				set.delete(done)
				signal.removeEventListener('abort', done)
				resolve()
			}
			const clock = setTimeout(done, ms)
			signal.addEventListener('abort', done, { once: true })
			set.add(done)
			// Written between the read and now: no need to wait.
			if (bufferOf(userbotId).version !== since) done()
		})

	const parts: BufferParts = {
		journal,
		states,
		ready,
		refresh,
		take: (asker, s, limit) => take(journal, asker, s, limit, Date.now()),
		latestFrom: (asker, s, n) => latestFrom(journal, asker, s, n, Date.now()),
		version: (userbotId) => bufferOf(userbotId).version,
		handed: (userbotId) => bufferOf(userbotId).handed,
		wait,
	}

	return {
		/** A token's key, its userbot and its account's user id (the token's first part): index.ts, at each request. */
		introduce(keyId: number, userbotId: number, selfId: number) {
			selves.set(keyId, selfId)
			if (tokens.get(keyId) === userbotId) return
			introduced.set(keyId, userbotId)
			tokens.set(keyId, userbotId)
			kept.add(userbotId)
		},

		/** The view of one token's updates (update-view.ts). */
		forToken(keyId: number, userbotId: number) {
			return createTokenView(parts, { keyId, userbotId, selfId: selves.get(keyId) ?? 0 })
		},

		/**
		 * Runs a sending method of the face: the messages this server sends meanwhile wait, and those
		 * its answer names (`Message`s: `chat.id` and `message_id`) are the face's own.
		 */
		async sending<T>(userbotId: number, run: () => Promise<T>): Promise<T> {
			const b = bufferOf(userbotId)
			b.sending++
			let result: T | undefined
			try {
				result = await run()
				return result
			} finally {
				b.sending--
				const mine = new Set<string>()
				for (const m of Array.isArray(result) ? result : [result]) {
					const x = m as { message_id?: unknown; chat?: { id?: unknown } } | undefined
					if (typeof x?.message_id === 'number' && x.chat) mine.add(`${x.chat.id}:${x.message_id}`)
				}
				for (const e of b.pending) if (e.face === undefined && e.key && mine.has(e.key)) e.face = true
				release(userbotId, b)
			}
		},
	}
}

/** What a token's view (update-view.ts) reads of the buffer. */
export interface BufferParts {
	journal: Journal
	states: ReturnType<typeof createTokenStates>
	/** Resolves once the journal's numbers and the tokens were read at start. */
	ready: Promise<void>
	refresh(): Promise<void>
	take(asker: Asker, s: TokenState, limit: number): Promise<Array<Record<string, unknown>>>
	latestFrom(asker: Asker, s: TokenState, n: number): Promise<number | undefined>
	version(userbotId: number): number
	/** The last `update_id` handed out. */
	handed(userbotId: number): number
	wait(userbotId: number, since: number, ms: number, signal: AbortSignal): Promise<void>
}

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err))

export type UpdateBuffer = ReturnType<typeof createUpdateBuffer>
export type TokenUpdates = ReturnType<UpdateBuffer['forToken']>
export { defaultSettings, settingsFrom, settingsJson, type TokenSettings } from './update-settings'
export { botMessageId }
