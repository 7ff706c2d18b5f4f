import type { chatInviteLink, editChatInviteLink as EditRequest } from 'tdlib-types'
import { defineCommand, fields, optionalBool, optionalString, requiredInt } from 'userbot-gateway/plugin'
import { ChatAdminErrors as E } from './errors'
import { optionalInt32, requiredText } from './invite-fields'

interface Change {
	name?: string
	expiration_date?: number
	member_limit?: number
	creates_join_request?: boolean
}

/**
 * The link's terms after an edit: what the client gave, and for what it left out, the link's
 * current value. An omitted field that would contradict a given one yields to it, since TDLib allows
 * no member limit on a link that asks for approval: asking for approval drops the limit, and setting
 * a limit stops asking for approval.
 */
export function editedTerms(change: Change, current: chatInviteLink) {
	const limited = change.member_limit !== undefined && change.member_limit > 0
	const creates_join_request = change.creates_join_request ?? (limited ? false : current.creates_join_request)
	return {
		name: change.name ?? current.name,
		expiration_date: change.expiration_date ?? current.expiration_date,
		member_limit: change.member_limit ?? (creates_join_request ? 0 : current.member_limit),
		creates_join_request,
	}
}

/**
 * `edit_chat_invite_link` → `editChatInviteLink`; result `chatInviteLink`. TDLib replaces every
 * field, so a field left out would be reset (tdlib-mapping §8.7). An edit here changes only what it
 * names: when a field is left out, the link is read first (`getChatInviteLink`) and its current value
 * is sent back. With all four fields given, the edit is one request.
 */
export const editChatInviteLink = defineCommand({
	name: 'edit_chat_invite_link',
	summary: 'Changes the fields of an invite link the frame names; the others stay.',
	result: { description: 'The edited link.', tdlib: 'chatInviteLink' },
	examples: [{ chat_id: -1000000003001, invite_link: 'https://t.me/+AbCdEfGhIjKlMnOp', member_limit: 100 }],
	methods: ['getChatInviteLink', 'editChatInviteLink'],
	input: fields({
		chat_id: requiredInt('chat_id', E.CHAT_ID_REQUIRED),
		invite_link: requiredText('invite_link', E.INVITE_LINK_REQUIRED),
		name: optionalString('name'),
		expiration_date: optionalInt32('expiration_date'),
		member_limit: optionalInt32('member_limit'),
		creates_join_request: optionalBool('creates_join_request'),
	}),
	async run(input, ctx) {
		const { chat_id, invite_link } = input
		// Named one by one: the frame's other keys (action, request_id...) must not reach TDLib.
		const { name, expiration_date, member_limit, creates_join_request } = input
		const terms =
			name !== undefined &&
			expiration_date !== undefined &&
			member_limit !== undefined &&
			creates_join_request !== undefined
				? { name, expiration_date, member_limit, creates_join_request }
				: editedTerms(
						{ name, expiration_date, member_limit, creates_join_request },
						await ctx.invoke({ _: 'getChatInviteLink', chat_id, invite_link }),
					)
		const request: EditRequest = { _: 'editChatInviteLink', chat_id, invite_link, ...terms }
		return ctx.invoke(request)
	},
})
