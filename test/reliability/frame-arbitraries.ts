import fc from 'fast-check'
import { SEED_CHATS, SEED_USERS } from '../../src/emulator'

/**
 * fast-check's arbitraries for WebSocket frames a hostile or broken client could send: commands of
 * the catalog with their fields missing, extra, of the wrong type, huge, int64 strings, nested junk,
 * odd Unicode; the same frames mutated as text (cut, spliced, numbers JSON cannot hold, duplicate
 * keys); and raw junk (not JSON, not UTF-8, not an object). Plausible values are mixed in so that
 * frames also get past validation into the commands and TDLib (the emulator).
 */
export interface CatalogEntry {
	name: string
	fields: readonly string[]
}

export interface FrameTargets {
	/** A logged-in userbot of the fuzzing user's company. */
	userbotId: number
	/** A userbot of another company (must answer `userbot not found`). */
	foreignUserbotId?: number
}

/** One frame to send. `tracked` JSON frames get a `request_id` of the driver's, to match the reply. */
export type Frame =
	| { kind: 'json'; value: Record<string, unknown>; tracked: boolean }
	| { kind: 'text'; text: string }
	| { kind: 'bytes'; bytes: Uint8Array }

/** The gateway's own frames beside the catalog's commands, with the fields they read. */
export const CONNECTION_ACTIONS: readonly CatalogEntry[] = [
	{ name: 'subscribe', fields: ['updates', 'after'] },
	{ name: 'unsubscribe', fields: [] },
	{ name: 'authenticate', fields: ['access'] },
]

/** Fields some schema reads without declaring them as entries (a pipe of checks). */
const EXTRA_FIELDS: Record<string, readonly string[]> = {
	forward_message: [
		'from_chat_id',
		'to_chat_ids',
		'message_ids',
		'send_copy',
		'remove_caption',
		'new_caption',
		'show_caption_above_media',
	],
}

export function withExtraFields(entry: CatalogEntry): CatalogEntry {
	const extra = EXTRA_FIELDS[entry.name] ?? []
	return { name: entry.name, fields: [...new Set([...entry.fields, ...extra])] }
}

const LONE_SURROGATES = ['\ud800', '\udfff', 'a\ud83d', '\udc00b']
const ODD_TEXT = [
	'',
	' ',
	'\u0000',
	'\u0007\u001b[31m',
	'\u202e\u2066rtl',
	'\u2028\u2029',
	'\ufeff',
	'e\u0301',
	'𝕏🧨👩‍👩‍👧',
	'%s%n%x',
	'../../etc/passwd',
	'file:///etc/passwd',
	'__proto__',
	'constructor',
	'<script>',
	'x'.repeat(5000),
]
const INT64_STRINGS = [
	'9223372036854775807',
	'-9223372036854775808',
	'9223372036854775808',
	'18446744073709551616',
	'99999999999999999999999999',
	'-0',
	'007',
	'1e3',
	'0x10',
	' 42',
]
const HUGE_NUMBERS = [
	2 ** 31,
	-(2 ** 31) - 1,
	2 ** 53,
	2 ** 53 + 2,
	2 ** 63,
	-(2 ** 63),
	2 ** 64,
	1e308,
	-1e308,
	Number.MAX_VALUE,
	Number.MIN_VALUE,
	-1,
	0,
	0.5,
	-0.000001,
]
const TD_OBJECTS: unknown[] = [
	{ '@type': 5 },
	{ _: 2056030919 },
	{ _: 'inputFileLocal', path: '/etc/passwd' },
	{ '@type': 'formattedText', _: 'textEntity' },
	{ _: 'chatMemberStatusAdministrator', rights: { _: 'chatAdministratorRights', can_change_info: 'yes' } },
	{ _: 'userPrivacySettingRuleAllowAll', extra: 1 },
	{ _: 'inputMessageText' },
	{ constructor: { prototype: { polluted: true } } },
]

/** Nested lists or objects `depth` levels deep (the gateway refuses past 32). */
const deep = (depth: number, asObject: boolean): unknown => {
	let v: unknown = 0
	for (let i = 0; i < depth; i++) v = asObject ? { a: v } : [v]
	return v
}

/** A value of any JSON type, leaning to the hostile. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
	{ arbitrary: fc.constantFrom(...HUGE_NUMBERS), weight: 3 },
	{ arbitrary: fc.constantFrom(...INT64_STRINGS), weight: 3 },
	{ arbitrary: fc.constantFrom(...ODD_TEXT, ...LONE_SURROGATES), weight: 3 },
	{ arbitrary: fc.constantFrom(...TD_OBJECTS), weight: 2 },
	{ arbitrary: fc.integer(), weight: 2 },
	{ arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }), weight: 1 },
	{ arbitrary: fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String), weight: 1 },
	{ arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 2 },
	{ arbitrary: fc.boolean(), weight: 1 },
	{ arbitrary: fc.constant(null), weight: 1 },
	{ arbitrary: fc.jsonValue({ maxDepth: 4 }), weight: 3 },
	{ arbitrary: fc.array(fc.integer(), { maxLength: 12 }), weight: 1 },
	{
		arbitrary: fc.tuple(fc.integer({ min: 8, max: 80 }), fc.boolean()).map(([d, o]) => deep(d, o)),
		weight: 1,
	},
)

const SEED_CHAT_IDS = Object.values(SEED_CHATS)
const SEED_USER_IDS = SEED_USERS.map((u) => u.id)
const shortText = fc.string({ minLength: 1, maxLength: 30 })
const smallInt = fc.integer({ min: -5, max: 2000 })

/** A value that could pass the field's check, so the frame reaches the command's own logic. */
function plausibleFor(field: string): fc.Arbitrary<unknown> {
	if (/chat_ids$/.test(field))
		return fc.array(fc.constantFrom(...SEED_CHAT_IDS), { minLength: 1, maxLength: 3 })
	if (/user_ids$/.test(field))
		return fc.array(fc.constantFrom(...SEED_USER_IDS), { minLength: 1, maxLength: 3 })
	if (/message_ids$/.test(field))
		return fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 4 })
	if (/chat_id$/.test(field)) return fc.constantFrom(...SEED_CHAT_IDS, 1001, 1003)
	if (/user_id$/.test(field)) return fc.constantFrom(...SEED_USER_IDS)
	if (/(message_id|event_id)$/.test(field)) return fc.integer({ min: 1, max: 40 })
	if (/^(limit|offset|forward_limit|member_limit|days|message_auto_delete_time)$/.test(field)) return smallInt
	if (/date$/.test(field)) return fc.integer({ min: 0, max: 2 ** 31 - 1 })
	if (
		/^(is_|can_|only_|disable_|revoke|approve|all$|add_to_recent|creates_|send_copy|remove_caption|show_)/.test(
			field,
		)
	)
		return fc.boolean()
	if (field === 'session_id') return fc.constantFrom('1', '9223372036854775807', 7)
	if (field === 'block_list')
		return fc.constantFrom({ _: 'blockListMain' }, { _: 'blockListStories' }, 'main')
	if (field === 'setting' || field === 'settings')
		return fc.constantFrom('show_status', 'allow_calls', { _: 'userPrivacySettingShowStatus' }, [
			'show_status',
		])
	if (field === 'mode') return fc.constantFrom('everybody', 'contacts', 'nobody', 'all')
	if (field === 'reaction')
		return fc.constantFrom('👍', { _: 'reactionTypeEmoji', emoji: '👍' }, [{ emoji: '🔥' }])
	if (field === 'media')
		return fc.constantFrom({ url: 'https://example.com/a.jpg', media_type: 'photo' }, { upload: 'nope' }, {})
	if (field === 'updates')
		return fc.constantFrom(['updateNewMessage'], ['updateChatAction', 'updateOption'], [])
	if (field === 'after') return fc.integer({ min: 0, max: 50 })
	if (field === 'phone_number') return fc.constantFrom('9996621234', '+1', '')
	if (field === 'code') return fc.constantFrom('22222', '00000')
	if (
		/password|hint|email|recovery_code|query|name|title|text|caption|first_name|last_name|invite_link|access/.test(
			field,
		)
	)
		return shortText
	return fc.oneof(shortText, smallInt, fc.boolean())
}

const fieldValue = (field: string) =>
	fc.oneof({ arbitrary: plausibleFor(field), weight: 3 }, { arbitrary: hostileValue, weight: 2 })

function userbotIdArb(t: FrameTargets): fc.Arbitrary<unknown> {
	const own = fc.constant(t.userbotId)
	const others: Array<fc.WeightedArbitrary<unknown>> = [
		{ arbitrary: own, weight: 12 },
		{ arbitrary: fc.constant(String(t.userbotId)), weight: 1 },
		{ arbitrary: fc.constantFrom(999_999, 0, -1, 2 ** 53 + 2, '18446744073709551616'), weight: 1 },
		{ arbitrary: hostileValue, weight: 1 },
	]
	if (t.foreignUserbotId !== undefined) others.push({ arbitrary: fc.constant(t.foreignUserbotId), weight: 1 })
	return fc.oneof(...others)
}

/** A JSON object frame: a catalog action (or a wrong one), a userbot id, some fields, extra keys. */
function commandFrame(catalog: readonly CatalogEntry[], t: FrameTargets): fc.Arbitrary<Frame> {
	const entries = [...catalog, ...CONNECTION_ACTIONS].map(withExtraFields)
	const body = fc.constantFrom(...entries).chain((entry) =>
		fc
			.record({
				action: fc.oneof(
					{ arbitrary: fc.constant<unknown>(entry.name), weight: 20 },
					{
						arbitrary: fc.constantFrom<unknown>(
							entry.name.toUpperCase(),
							` ${entry.name}`,
							`${entry.name}\u0000`,
						),
						weight: 1,
					},
					{ arbitrary: hostileValue, weight: 1 },
				),
				userbot: fc.option(userbotIdArb(t), { nil: undefined, freq: 12 }),
				fields: fc.tuple(...entry.fields.map((f) => fc.option(fieldValue(f), { nil: undefined, freq: 2 }))),
				extra: fc.dictionary(fc.string({ maxLength: 12 }), hostileValue, { maxKeys: 2 }),
				// One frame in ten carries no request id of ours: its reply is counted, not matched.
				untracked: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
			})
			.map(({ action, userbot, fields, extra, untracked }) => {
				const value: Record<string, unknown> = { ...extra }
				entry.fields.forEach((name, i) => {
					if (fields[i] !== undefined) value[name] = fields[i]
				})
				if (action !== undefined) value.action = action
				if (userbot !== undefined) value.userbot_id = userbot
				return { kind: 'json', value, tracked: !untracked } as Frame
			}),
	)
	return body
}

/** Numbers JSON can write and JavaScript cannot hold exactly. */
const NUMBER_LITERALS = [
	'1e400',
	'-1e400',
	'123456789012345678901234567890',
	'9007199254740993',
	'-0',
	'1E2',
	'0.1e-400',
]

/** A frame made as text: a good frame cut, spliced, with wild numbers or duplicate keys; or junk. */
function textFrame(catalog: readonly CatalogEntry[], t: FrameTargets): fc.Arbitrary<Frame> {
	const names = [...catalog, ...CONNECTION_ACTIONS].map((c) => c.name)
	const base = fc
		.record({ action: fc.constantFrom(...names), chat_id: fc.constantFrom(...SEED_CHAT_IDS) })
		.map((r) => JSON.stringify({ ...r, userbot_id: t.userbotId }))
	const cut = fc.tuple(base, fc.nat()).map(([s, n]) => s.slice(0, n % s.length))
	const spliced = fc
		.tuple(base, fc.nat(), fc.string({ unit: 'binary', maxLength: 4 }))
		.map(([s, n, junk]) => s.slice(0, n % s.length) + junk + s.slice(n % s.length))
	const wildNumber = fc
		.tuple(
			fc.constantFrom(...names),
			fc.constantFrom('userbot_id', 'chat_id', 'limit', 'request_id'),
			fc.constantFrom(...NUMBER_LITERALS),
		)
		.map(([action, field, literal]) => {
			const ids = field === 'userbot_id' ? '' : `"userbot_id":${t.userbotId},`
			return `{"action":"${action}",${ids}"${field}":${literal}}`
		})
	const duplicateKeys = fc
		.constantFrom(...names)
		.map((a) => `{"action":"${a}","userbot_id":${t.userbotId},"action":"nope","__proto__":{"userbot_id":1}}`)
	const junk = fc.oneof(
		fc.string({ unit: 'binary', maxLength: 60 }),
		fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? 'null'),
		fc.constantFrom(
			'',
			' ',
			'null',
			'[]',
			'"send_message"',
			'{}',
			'{"action":""}',
			'{"action":null}',
			'\ufeff{}',
		),
	)
	const text = fc
		.oneof(cut, spliced, wildNumber, duplicateKeys, junk)
		.map((s): Frame => ({ kind: 'text', text: s }))
	const bytes = fc
		.uint8Array({ minLength: 1, maxLength: 40 })
		.map((b): Frame => ({ kind: 'bytes', bytes: Uint8Array.from([0xff, 0xfe, ...b]) }))
	return fc.oneof({ arbitrary: text, weight: 5 }, { arbitrary: bytes, weight: 1 })
}

/** A JSON frame mutated as an object: a key dropped, a value swapped for junk, the whole wrapped. */
function mutatedFrame(catalog: readonly CatalogEntry[], t: FrameTargets): fc.Arbitrary<Frame> {
	return fc
		.tuple(commandFrame(catalog, t), fc.nat(), hostileValue, fc.nat({ max: 3 }))
		.map(([frame, n, junk, how]) => {
			if (frame.kind !== 'json') return frame
			const keys = Object.keys(frame.value)
			const key = keys[n % Math.max(1, keys.length)]
			const value = { ...frame.value }
			if (how === 0 && key) delete value[key]
			else if (how === 1 && key) value[key] = junk
			else if (how === 2) return { kind: 'text', text: JSON.stringify([value]) }
			else value[key ?? 'action'] = { nested: value[key ?? 'action'], junk }
			return { ...frame, value }
		})
}

/** Every kind of frame, weighted toward commands that reach the command code. */
export function frameArbitrary(catalog: readonly CatalogEntry[], t: FrameTargets): fc.Arbitrary<Frame> {
	return fc.oneof(
		{ arbitrary: commandFrame(catalog, t), weight: 6 },
		{ arbitrary: mutatedFrame(catalog, t), weight: 2 },
		{ arbitrary: textFrame(catalog, t), weight: 2 },
	)
}
