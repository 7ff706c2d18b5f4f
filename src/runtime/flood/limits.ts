/**
 * Flood limits: how many requests of a kind an account may make in a period, as a token bucket
 * (GCRA: `count` at once, then one every `seconds / count`). The same shape serves the governor
 * (`FLOOD_LIMITS`, ahead of Telegram) and the emulated cloud (`EMULATOR_FLOOD_LIMITS`, playing
 * Telegram). docs/flood-and-health.md lists the keys and why the defaults are what they are.
 */

/** What a command declares it does to Telegram (`flood` on its definition). */
export const FLOOD_CLASSES = ['send', 'resolve', 'join', 'add_members', 'contacts', 'dialogs'] as const
export type FloodClass = (typeof FLOOD_CLASSES)[number]

/**
 * The buckets: `send` counts every message an account sends, `send_chat` those to one chat,
 * `send_group` those to one group or channel (a negative chat id); the other classes one bucket per
 * account each.
 */
export const FLOOD_KEYS = [
	'send',
	'send_chat',
	'send_group',
	'resolve',
	'join',
	'add_members',
	'contacts',
	'dialogs',
] as const
export type FloodKey = (typeof FLOOD_KEYS)[number]

export interface Rate {
	count: number
	seconds: number
}
export type FloodLimits = Partial<Record<FloodKey, Rate>>

/**
 * The governor's defaults: what Telegram's own apps and the field's experience tolerate for a user
 * account (about one message a second per chat, twenty a minute per group), kept on the safe side.
 */
export const DEFAULT_FLOOD_LIMITS: Readonly<Record<FloodKey, Rate>> = {
	send: { count: 30, seconds: 60 },
	send_chat: { count: 1, seconds: 1 },
	send_group: { count: 20, seconds: 60 },
	resolve: { count: 10, seconds: 60 },
	join: { count: 20, seconds: 3600 },
	add_members: { count: 20, seconds: 3600 },
	contacts: { count: 50, seconds: 86_400 },
	dialogs: { count: 20, seconds: 60 },
}

/** The TDLib methods of a class that reach Telegram and count against it; a command's others do not. */
export const CLASS_METHODS: Readonly<Record<FloodClass, ReadonlySet<string>>> = {
	send: new Set(['sendMessage', 'sendMessageAlbum', 'forwardMessages']),
	resolve: new Set(['searchPublicChat', 'searchPublicChats', 'searchChatsOnServer']),
	join: new Set(['joinChat', 'joinChatByInviteLink']),
	add_members: new Set(['addChatMember', 'addChatMembers']),
	contacts: new Set(['importContacts', 'addContact']),
	dialogs: new Set(['getChats', 'loadChats']),
}

/** The class of a TDLib method, whoever sends it (the emulated cloud classes what it receives). */
export function classOfMethod(method: string): FloodClass | undefined {
	for (const c of FLOOD_CLASSES) if (CLASS_METHODS[c].has(method)) return c
	return undefined
}

/** The buckets one request of `cls` to `chatId` takes a token from. */
export function keysFor(
	cls: FloodClass,
	chatId: number | undefined,
): Array<{ key: FloodKey; scope: string }> {
	if (cls !== 'send') return [{ key: cls, scope: '' }]
	const keys: Array<{ key: FloodKey; scope: string }> = [{ key: 'send', scope: '' }]
	if (chatId !== undefined) {
		keys.push({ key: 'send_chat', scope: String(chatId) })
		if (chatId < 0) keys.push({ key: 'send_group', scope: String(chatId) })
	}
	return keys
}

const ENTRY = /^([a-z_]+)=(\d+)\/(\d+(?:\.\d+)?)$/

/**
 * Reads `key=count/seconds,...` (`send_chat=1/1,send_group=20/60`). Throws a message naming the
 * first wrong entry's key (never its value). `extra` lists further `key=number` entries allowed
 * (the emulator's `delay`).
 */
export function parseFloodLimits(
	text: string,
	extra: readonly string[] = [],
): { limits: FloodLimits; extra: Record<string, number> } {
	const limits: FloodLimits = {}
	const numbers: Record<string, number> = {}
	for (const raw of text.split(',')) {
		const entry = raw.trim()
		if (entry === '') continue
		const key = entry.split('=')[0] ?? ''
		const plain = /^([a-z_]+)=(\d+(?:\.\d+)?)$/.exec(entry)
		if (plain && extra.includes(plain[1] as string)) {
			numbers[plain[1] as string] = Number(plain[2])
			continue
		}
		const m = ENTRY.exec(entry)
		if (!m || !(FLOOD_KEYS as readonly string[]).includes(m[1] as string))
			throw new Error(`${/^[a-z_]{1,20}$/.test(key) ? key : 'an entry'}: expected key=count/seconds`)
		const count = Number(m[2])
		const seconds = Number(m[3])
		if (count < 1 || seconds <= 0) throw new Error(`${key}: count and seconds must be positive`)
		limits[m[1] as FloodKey] = { count, seconds }
	}
	return { limits, extra: numbers }
}
