import type { chatPermissions$Input } from 'tdlib-types'
import {
	checkTdObject,
	defineCommand,
	fields,
	requiredInt,
	requiredValue,
	TdObjectError,
	tdObjectSchema,
	tdSlot,
} from 'userbot-gateway/plugin'
import * as v from 'valibot'
import { MembersErrors as E } from './errors'
import { untilDateField } from './until-date'

const PERMISSIONS = tdSlot('chatPermissions')

/**
 * `restrict_chat_member {chat_id, user_id, permissions, until_date?}` → `setChatMemberStatus`
 * (`chatMemberStatusRestricted`, `is_member` true): what a supergroup member may do, as TDLib's
 * `chatPermissions`, until `until_date` (Unix time; 0 or left out: for ever). TDLib answers for a
 * basic group or a channel, where nobody can be restricted.
 */
export const restrictChatMember = defineCommand({
	name: 'restrict_chat_member',
	policy: { action: 'write' },
	summary: "Restricts what a supergroup member may do (TDLib's chatPermissions), until a date or for ever.",
	result: { description: "TDLib's `ok`.", tdlib: 'ok' },
	examples: [
		{
			chat_id: -1000000003001,
			user_id: 1005,
			permissions: { can_send_basic_messages: false },
			until_date: 0,
		},
	],
	methods: ['setChatMemberStatus', 'createPrivateChat'],
	input: fields({
		chat_id: requiredInt('chat_id', E.CHAT_ID_REQUIRED),
		user_id: requiredInt('user_id', E.USER_ID_REQUIRED),
		permissions: v.pipe(
			requiredValue(E.PERMISSIONS_REQUIRED, tdObjectSchema(PERMISSIONS)),
			v.rawTransform(({ dataset, addIssue, NEVER }) => {
				try {
					return checkTdObject<chatPermissions$Input>(dataset.value, PERMISSIONS, 'permissions')
				} catch (err) {
					if (!(err instanceof TdObjectError)) throw err
					addIssue({ message: err.message })
					return NEVER
				}
			}),
		),
		until_date: untilDateField('until_date'),
	}),
	run: (input, ctx) =>
		ctx.invoke({
			_: 'setChatMemberStatus',
			chat_id: input.chat_id,
			member_id: { _: 'messageSenderUser', user_id: input.user_id },
			status: {
				_: 'chatMemberStatusRestricted',
				is_member: true,
				restricted_until_date: input.until_date ?? 0,
				permissions: { ...input.permissions, _: 'chatPermissions' },
			},
		}),
})
