import { badRequest } from './answer'
import { jsonOf, stringOf } from './params'

/**
 * The Bot API's `MessageEntity` (docs/bot-api.md#entities-and-parse_mode) and TDLib's `textEntity`,
 * both ways, as Telegram's Bot API server maps them: on the way in the kinds Telegram finds by itself
 * (mentions, hashtags, URLs...) are dropped (TDLib finds them again), on the way out every kind the
 * Bot API names is given. Every refusal is worded here, never with a value of the request.
 */
type Td = Record<string, unknown>

/** The most entities one text may carry here (a 4096-character text cannot use more). */
export const MAX_ENTITIES = 1000

/** The kinds TDLib finds in the text by itself: accepted and dropped, as the Bot API does. */
const FOUND_BY_TDLIB = new Set([
	'mention',
	'hashtag',
	'cashtag',
	'bot_command',
	'url',
	'email',
	'phone_number',
	'bank_card_number',
])

const SIMPLE: Readonly<Record<string, string>> = {
	bold: 'textEntityTypeBold',
	italic: 'textEntityTypeItalic',
	underline: 'textEntityTypeUnderline',
	strikethrough: 'textEntityTypeStrikethrough',
	spoiler: 'textEntityTypeSpoiler',
	code: 'textEntityTypeCode',
	blockquote: 'textEntityTypeBlockQuote',
	expandable_blockquote: 'textEntityTypeExpandableBlockQuote',
}

const isObject = (x: unknown): x is Td => typeof x === 'object' && x !== null && !Array.isArray(x)

class EntityError extends Error {}
const refuse = (why: string): never => {
	throw new EntityError(why)
}

/** An int32 field of the entity, as the Bot API reads it (a number, or a string of digits). */
function int32(o: Td, name: string): number {
	const value = o[name]
	if (value === undefined || value === null) refuse(`Can't find field "${name}"`)
	const n = typeof value === 'string' && /^-?\d{1,10}$/.test(value) ? Number(value) : value
	if (typeof n !== 'number' || !Number.isInteger(n) || n < -(2 ** 31) || n >= 2 ** 31)
		refuse(`Field "${name}" must be a valid Number`)
	return n as number
}

function string(o: Td, name: string, required: boolean): string {
	const value = o[name]
	if (value === undefined || value === null) return required ? refuse(`Can't find field "${name}"`) : ''
	if (typeof value !== 'string') refuse(`Field "${name}" must be of type String`)
	return value as string
}

/** A user or emoji id: an integer, or a string of digits (an int64 kept as a string for TDLib). */
function int64(o: Td, name: string): string {
	const value = o[name]
	if (value === undefined || value === null) refuse(`Can't find field "${name}"`)
	const s = typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : value
	if (typeof s !== 'string' || !/^-?\d{1,19}$/.test(s) || BigInt(s) >= 2n ** 63n || BigInt(s) < -(2n ** 63n))
		refuse(`Field "${name}" must be a valid Number`)
	return s as string
}

function entityType(o: Td): Td | undefined {
	const type = string(o, 'type', true)
	if (type === '') refuse('Type is not specified')
	const simple = SIMPLE[type]
	if (simple) return { _: simple }
	switch (type) {
		case 'pre': {
			const language = string(o, 'language', false)
			return language === '' ? { _: 'textEntityTypePre' } : { _: 'textEntityTypePreCode', language }
		}
		case 'text_link':
			return { _: 'textEntityTypeTextUrl', url: string(o, 'url', true) }
		case 'text_mention': {
			const user = o.user
			if (!isObject(user)) return refuse(`Field "user" must be of type Object`)
			const id = int64(user, 'id')
			if (!Number.isSafeInteger(Number(id))) refuse('Field "id" must be a valid Number')
			return { _: 'textEntityTypeMentionName', user_id: Number(id) }
		}
		case 'custom_emoji':
			return { _: 'textEntityTypeCustomEmoji', custom_emoji_id: int64(o, 'custom_emoji_id') }
		default:
			if (FOUND_BY_TDLIB.has(type)) return undefined
			return refuse('Unsupported type specified')
	}
}

/**
 * A parameter that is a list of `MessageEntity` (`entities`, `caption_entities`, `quote_entities`):
 * given as a list (JSON) or as JSON in a string (a form, a query), as TDLib `textEntity`s; undefined
 * when absent.
 */
export function entitiesOf(params: Record<string, unknown>, name: string): Td[] | undefined {
	const value = jsonOf(params, name, 'object')
	if (value === undefined) return undefined
	if (!Array.isArray(value)) throw badRequest(`can't parse ${name} JSON object`)
	if (value.length > MAX_ENTITIES) throw badRequest(`too many ${name}`)
	const out: Td[] = []
	try {
		for (const item of value) {
			if (!isObject(item)) refuse('expected an Object')
			const o = item as Td
			const offset = int32(o, 'offset')
			const length = int32(o, 'length')
			const type = entityType(o)
			if (type) out.push({ _: 'textEntity', offset, length, type })
		}
	} catch (err) {
		if (err instanceof EntityError) throw badRequest(`can't parse MessageEntity: ${err.message}`)
		throw err
	}
	return out
}

/** The Bot API's `User` of a text mention: its id (TDLib's entity names no more). */
const mentioned = (id: unknown) => ({ id, is_bot: false, first_name: '' })

/** One TDLib `textEntity` as a Bot API `MessageEntity`, or undefined for a kind the Bot API has none of. */
function botEntity(entity: Td): Td | undefined {
	const type = isObject(entity.type) ? entity.type : {}
	const at = { offset: entity.offset, length: entity.length }
	switch (type._) {
		case 'textEntityTypeMention':
			return { type: 'mention', ...at }
		case 'textEntityTypeHashtag':
			return { type: 'hashtag', ...at }
		case 'textEntityTypeCashtag':
			return { type: 'cashtag', ...at }
		case 'textEntityTypeBotCommand':
			return { type: 'bot_command', ...at }
		case 'textEntityTypeUrl':
			return { type: 'url', ...at }
		case 'textEntityTypeEmailAddress':
			return { type: 'email', ...at }
		case 'textEntityTypePhoneNumber':
			return { type: 'phone_number', ...at }
		case 'textEntityTypeBankCardNumber':
			return { type: 'bank_card_number', ...at }
		case 'textEntityTypePre':
			return { type: 'pre', ...at }
		case 'textEntityTypePreCode':
			return { type: 'pre', ...at, language: type.language }
		case 'textEntityTypeTextUrl':
			return { type: 'text_link', ...at, url: type.url }
		case 'textEntityTypeMentionName':
			return { type: 'text_mention', ...at, user: mentioned(type.user_id) }
		case 'textEntityTypeCustomEmoji':
			return { type: 'custom_emoji', ...at, custom_emoji_id: String(type.custom_emoji_id) }
		default: {
			const simple = Object.entries(SIMPLE).find(([, td]) => td === type._)
			return simple ? { type: simple[0], ...at } : undefined
		}
	}
}

/** A TDLib `formattedText`'s entities as Bot API `MessageEntity`s (undefined when there are none). */
export function botEntities(text: Td): Td[] | undefined {
	const list = Array.isArray(text.entities) ? text.entities : []
	const out = list
		.filter(isObject)
		.map(botEntity)
		.filter((e) => e !== undefined)
	return out.length ? out : undefined
}

/** The Bot API's parse modes by their lower-cased name, as the commands take them. */
const PARSE_MODES: Readonly<Record<string, string>> = {
	html: 'HTML',
	markdownv2: 'MarkdownV2',
	markdown: 'Markdown',
}

/** A `parse_mode` parameter (any case; `none` or empty for none) as the commands take it. */
export function parseModeOf(params: Record<string, unknown>, name = 'parse_mode'): string | undefined {
	const mode = (stringOf(params, name) ?? '').toLowerCase()
	if (mode === '' || mode === 'none') return undefined
	const known = PARSE_MODES[mode]
	if (!known) throw badRequest(`unsupported ${name}`)
	return known
}
