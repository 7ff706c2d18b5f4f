import type { failedToAddMembers } from 'tdlib-types'
import {
	CommandError,
	defineCommand,
	documented,
	fields,
	optionalInt,
	requiredInt,
} from 'userbot-gateway/plugin'
import { MembersErrors as E } from './errors'
import { addFailure } from './partial-result'

/**
 * `add_chat_member` → `addChatMember`; result TDLib's `failedToAddMembers`. When TDLib lists the user
 * there (their privacy settings refused the add), the user is not in the chat: that is an
 * `add_chat_member_error` (`failed to add user <id>`) carrying TDLib's answer as `result`. A TDLib
 * error carries `{failed_to_add_members: [], remaining_user_ids: [user_id]}` (docs/protocol.md#envelopes).
 */
export const addChatMember = defineCommand({
	name: 'add_chat_member',
	policy: { action: 'write' },
	summary: 'Adds one user to a group or channel.',
	result: {
		description: 'Who could not be added (their privacy settings), empty when all went in.',
		tdlib: 'failedToAddMembers',
	},
	errors: ['failed to add user <user_id>'],
	examples: [{ chat_id: -1000000003001, user_id: 1004 }],
	flood: 'add_members',
	methods: ['addChatMember', 'createPrivateChat'],
	input: fields({
		chat_id: requiredInt('chat_id', E.CHAT_ID_REQUIRED),
		user_id: requiredInt('user_id', E.USER_ID_REQUIRED),
		forward_limit: documented(optionalInt('forward_limit'), { default: 0 }),
	}),
	async run(input, ctx) {
		let result: failedToAddMembers
		try {
			result = await ctx.invoke({
				_: 'addChatMember',
				chat_id: input.chat_id,
				user_id: input.user_id,
				forward_limit: input.forward_limit ?? 0,
			})
		} catch (err) {
			throw addFailure(err, [], [input.user_id])
		}
		if (result.failed_to_add_members.length > 0) throw new CommandError(E.failedToAdd(input.user_id), result)
		return result
	},
})
