import {
	type CommandContext,
	CommandError,
	documented,
	optionalInt,
	optionalText,
	TdError,
} from 'userbot-gateway/plugin'
import * as v from 'valibot'
import { MessagesErrors as E } from './errors'

/** A phone number as people write it: digits, an optional `+`, spaces, dashes, dots and brackets. */
const PHONE = /^\+?[\d\s\-.()]{4,32}$/
const PHONE_DIGITS = /^\d{4,20}$/
/** A username as TDLib takes one (`@` optional): letters, digits and underscores. */
const USERNAME = /^@?[A-Za-z0-9_]{1,64}$/

const phoneDigits = (phone: string) => phone.replace(/\D/g, '')

/**
 * Whom a message goes to (docs/command-groups.md#reaching-a-person): exactly one of `chat_id` (a user's id
 * opens their private chat if TDLib does not know it yet: src/server/commands/reach-chat.ts), `phone` (the
 * number's account: one TDLib knows by it, else the number is imported as a contact) or `username`
 * (TDLib's `searchPublicChat`).
 */
export const RECIPIENT_FIELDS = {
	chat_id: optionalInt('chat_id'),
	phone: v.pipe(
		documented(optionalText('phone'), {
			type: 'string',
			description: "a phone number instead of chat_id: that person's private chat",
		}),
		v.check((x) => x === undefined || (PHONE.test(x) && PHONE_DIGITS.test(phoneDigits(x))), E.PHONE_INVALID),
	),
	username: v.pipe(
		documented(optionalText('username'), {
			type: 'string',
			description: "a public username instead of chat_id (`@` optional): that user's or chat's chat",
		}),
		v.check((x) => x === undefined || USERNAME.test(x), E.USERNAME_INVALID),
	),
}

/** The TDLib methods `recipientChat` may send. */
export const RECIPIENT_METHODS = [
	'searchUserByPhoneNumber',
	'importContacts',
	'createPrivateChat',
	'searchPublicChat',
] as const

/** The strings `recipientChat` may answer, for the command's `errors`. */
export const RECIPIENT_ERRORS = [
	E.CHAT_ID_REQUIRED,
	E.ONE_RECIPIENT,
	E.PHONE_NOT_ON_TELEGRAM,
	E.USERNAME_UNKNOWN,
]

/** The server's words for a username nobody holds (contacts.resolveUsername). */
const NO_SUCH_USERNAME: ReadonlySet<string> = new Set(['USERNAME_NOT_OCCUPIED', 'USERNAME_INVALID'])

/** The chat id the recipient fields name, opening a person's private chat on the way. */
export async function recipientChat(
	input: { chat_id?: number; phone?: string; username?: string },
	ctx: CommandContext,
): Promise<number> {
	const given = [input.chat_id, input.phone, input.username].filter((x) => x !== undefined).length
	if (given === 0) throw new CommandError(E.CHAT_ID_REQUIRED)
	if (given > 1) throw new CommandError(E.ONE_RECIPIENT)
	if (input.chat_id !== undefined) return input.chat_id
	if (input.phone !== undefined) {
		const userId = await userByPhone(phoneDigits(input.phone), ctx)
		return (await ctx.invoke({ _: 'createPrivateChat', user_id: userId, force: false })).id
	}
	try {
		return (await ctx.invoke({ _: 'searchPublicChat', username: input.username ?? '' })).id
	} catch (err) {
		if (err instanceof TdError && NO_SUCH_USERNAME.has(err.message))
			throw new CommandError(E.USERNAME_UNKNOWN)
		throw err
	}
}

/**
 * The account of a phone number: one TDLib already knows by it (a contact: nothing is renamed), else
 * the number imported as a contact named by the number, as `import_contacts` would.
 */
async function userByPhone(phone: string, ctx: CommandContext): Promise<number> {
	try {
		return (await ctx.invoke({ _: 'searchUserByPhoneNumber', phone_number: phone, only_local: true })).id
	} catch (err) {
		// TDLib's 404: no user of that number in its cache.
		if (!(err instanceof TdError) || err.code !== 404) throw err
	}
	const imported = await ctx.invoke({
		_: 'importContacts',
		contacts: [{ _: 'importedContact', phone_number: phone, first_name: `+${phone}`, last_name: '' }],
	})
	const userId = imported.user_ids[0] ?? 0
	if (userId === 0) throw new CommandError(E.PHONE_NOT_ON_TELEGRAM)
	return userId
}
