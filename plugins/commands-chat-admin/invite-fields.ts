import {
	CommandError,
	documented,
	INTEGER_SCHEMA,
	optionalBool,
	requiredValue,
	toInt,
} from 'userbot-gateway/plugin'
import * as v from 'valibot'
import { ChatAdminErrors as E } from './errors'

/**
 * Field shapes shared by the invite-link commands. Dates, limits and counts are TDLib int32s: a
 * value past that range is refused here, in our words, rather than by TDLib's JSON parser (whose
 * message would repeat the value).
 */

const INT32_MIN = -(2 ** 31)
const INT32_MAX = 2 ** 31 - 1

export const optionalInt32 = (field: string) =>
	v.optional(
		v.pipe(
			documented(v.unknown(), { ...INTEGER_SCHEMA, minimum: -(2 ** 31), maximum: 2 ** 31 - 1 }),
			v.check((x) => toInt(x) !== undefined, `${field} must be an integer`),
			v.transform((x) => toInt(x) as number),
			v.check((n) => n >= INT32_MIN && n <= INT32_MAX, `${field} is out of range`),
		),
	)

/**
 * A required text field: absent, `null` and the empty string all read `missing`, as in every group
 * (an empty invite link names no link; TDLib would read it as every link of the chat).
 */
export const requiredText = (field: string, missing: string) =>
	v.pipe(
		requiredValue(missing, { type: 'string', minLength: 1 }),
		v.check((x) => typeof x === 'string', `${field} must be a string`),
		v.transform((x) => x as string),
	)

/**
 * `limit` of the list commands: the default of 50 (docs/protocol.md#limits-and-defaults), set explicitly
 * (docs/tdlib-mapping.md#conventions).
 */
export const DEFAULT_LIMIT = 50

/**
 * The terms of an invite link, as create_ and edit_chat_invite_link set them, each left out taking the
 * protocol's default (docs/commands.md#commands-chat-admin), which is TDLib's reading of a field left out.
 */
export interface LinkTerms {
	name?: string
	expiration_date?: number
	member_limit?: number
	creates_join_request?: boolean
}

export const LINK_TERM_DEFAULTS = {
	name: '',
	expiration_date: 0,
	member_limit: 0,
	creates_join_request: false,
}

/** The input fields of the terms but the name (edit documents its default, create does not). */
export const linkTermFields = {
	expiration_date: documented(optionalInt32('expiration_date'), {
		default: LINK_TERM_DEFAULTS.expiration_date,
	}),
	member_limit: documented(optionalInt32('member_limit'), { default: LINK_TERM_DEFAULTS.member_limit }),
	creates_join_request: documented(optionalBool('creates_join_request'), {
		default: LINK_TERM_DEFAULTS.creates_join_request,
	}),
}

/** The terms named one by one (the frame's other keys, action, request_id..., must not reach TDLib). */
export const termsOrDefaults = (t: LinkTerms) => ({
	name: t.name ?? LINK_TERM_DEFAULTS.name,
	expiration_date: t.expiration_date ?? LINK_TERM_DEFAULTS.expiration_date,
	member_limit: t.member_limit ?? LINK_TERM_DEFAULTS.member_limit,
	creates_join_request: t.creates_join_request ?? LINK_TERM_DEFAULTS.creates_join_request,
})

/**
 * The link whose join requests a command reads or processes: TDLib reads an empty link as every link
 * of the chat, so that takes an explicit `all: true` without a link, and a link with `all` is refused
 * as ambiguous (get_ and process_chat_join_requests).
 */
export function joinRequestLink(input: { invite_link?: string; all?: boolean }): string {
	const link = input.invite_link ?? ''
	const all = input.all === true
	if (all && link !== '') throw new CommandError(E.INVITE_LINK_WITH_ALL)
	if (!all && link === '') throw new CommandError(E.INVITE_LINK_REQUIRED)
	return link
}
