import type { chatAdministratorRights$Input, messageSenderUser$Input } from 'tdlib-types'
import {
	CommandError,
	defineCommand,
	documented,
	fields,
	isUnicodeText,
	optionalBool,
	RuntimeError,
	requiredInt,
	TdError,
	tdObjectField,
	wordError,
} from 'userbot-gateway/plugin'
import * as v from 'valibot'
import { ADMIN_RIGHTS, DEFAULT_RIGHTS, grantsAny } from './admin-rights'
import { ChatAdminErrors as E } from './errors'

const MAX_TITLE = 16

const customTitle = v.optional(
	v.pipe(
		documented(v.unknown(), { type: 'string', maxLength: MAX_TITLE }),
		v.check((x) => typeof x === 'string', 'custom_title must be a string'),
		v.check((x) => typeof x !== 'string' || isUnicodeText(x), 'custom_title must be valid Unicode text'),
		v.check((x) => typeof x !== 'string' || [...x].length <= MAX_TITLE, E.CUSTOM_TITLE_TOO_LONG),
		v.transform((x) => x as string),
	),
)

/**
 * `add_chat_administrator`: `getChat` (channels and groups only), then `setChatMemberStatus` with
 * `chatMemberStatusAdministrator`: the client's `rights` (default `{can_manage_chat: true}`), a
 * top-level `is_anonymous` winning over the one inside them, `can_be_edited` default true (which
 * TDLib ignores). Rights that grant nothing in this chat are refused: TDLib would demote instead.
 * With `custom_title`, then `setChatMemberTag` (1.8.65 moved the title there); titles are for groups,
 * so a channel is refused before anything changes. Result `{_: 'ok'}`; when the promotion went
 * through and the title did not, the error says so and carries `{_: 'ok'}`.
 */
export const addChatAdministrator = defineCommand({
	name: 'add_chat_administrator',
	policy: { action: 'write' },
	summary: 'Promotes a member to administrator with the given rights (and a title).',
	result: { description: "TDLib's `ok`.", tdlib: 'ok' },
	errors: [
		E.ADD_ADMIN_CHAT_KIND,
		E.CUSTOM_TITLE_IN_CHANNEL,
		E.RIGHTS_EMPTY,
		'administrator promoted, but custom_title was not set: <TDLib message>',
	],
	examples: [
		{
			chat_id: -1000000003001,
			user_id: 1003,
			rights: { can_delete_messages: true, can_pin_messages: true },
			custom_title: 'moderator',
		},
	],
	methods: ['getChat', 'setChatMemberStatus', 'setChatMemberTag', 'createPrivateChat'],
	input: fields({
		chat_id: requiredInt('chat_id', E.CHAT_ID_REQUIRED),
		user_id: requiredInt('user_id', E.USER_ID_REQUIRED),
		custom_title: customTitle,
		rights: documented(tdObjectField<chatAdministratorRights$Input>('rights', ADMIN_RIGHTS), {
			default: { can_manage_chat: true },
		}),
		is_anonymous: optionalBool('is_anonymous'),
		can_be_edited: documented(optionalBool('can_be_edited'), { default: true }),
	}),
	async run(input, ctx) {
		const chat = await ctx.invoke({ _: 'getChat', chat_id: input.chat_id })
		const type = chat.type
		if (type._ === 'chatTypePrivate' || type._ === 'chatTypeSecret')
			throw new CommandError(E.ADD_ADMIN_CHAT_KIND)
		if (input.custom_title !== undefined && type._ === 'chatTypeSupergroup' && type.is_channel)
			throw new CommandError(E.CUSTOM_TITLE_IN_CHANNEL)
		const given = input.rights ?? DEFAULT_RIGHTS
		const rights: chatAdministratorRights$Input = {
			...given,
			_: 'chatAdministratorRights',
			is_anonymous: input.is_anonymous ?? given.is_anonymous ?? false,
		}
		if (!grantsAny(rights, type)) throw new CommandError(E.RIGHTS_EMPTY)
		const member: messageSenderUser$Input = { _: 'messageSenderUser', user_id: input.user_id }
		const promoted = await ctx.invoke({
			_: 'setChatMemberStatus',
			chat_id: input.chat_id,
			member_id: member,
			status: { _: 'chatMemberStatusAdministrator', can_be_edited: input.can_be_edited ?? true, rights },
		})
		if (input.custom_title === undefined) return promoted
		try {
			await ctx.invoke({
				_: 'setChatMemberTag',
				chat_id: input.chat_id,
				user_id: input.user_id,
				tag: input.custom_title,
			})
		} catch (err) {
			if (!(err instanceof TdError || err instanceof RuntimeError)) throw err
			throw new CommandError(E.titleNotSet(wordError(err)), promoted)
		}
		return promoted
	},
})
