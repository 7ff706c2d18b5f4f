import type { chatInviteLink, editChatInviteLink as EditRequest } from 'tdlib-types'
import {
	defineCommand,
	documented,
	fields,
	optionalBool,
	optionalString,
	requiredInt,
} from 'userbot-gateway/plugin'
import { ChatAdminErrors as E } from './errors'
import {
	LINK_TERM_DEFAULTS,
	type LinkTerms,
	linkTermFields,
	requiredText,
	termsOrDefaults,
} from './invite-fields'

/**
 * The link's terms after an edit with `keep_unspecified`: what the client gave, and for what it left out, the
 * link's current value. An omitted field that would contradict a given one yields to it, since TDLib allows
 * no member limit on a link that asks for approval: asking for approval drops the limit, and setting a limit
 * stops asking for approval.
 */
export function editedTerms(change: LinkTerms, current: chatInviteLink) {
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
 * field, and so does this command, as docs/commands.md#commands-chat-admin has it: a field left out takes the
 * protocol's default (`expiration_date` 0, `member_limit` 0, `creates_join_request` false; no name), in one
 * request. `keep_unspecified: true` opts into an edit of only what the frame names: the link is read first
 * (`getChatInviteLink`) and its current value sent back for each field left out (read and write are two
 * requests, so an edit landing in between is overwritten for those fields).
 */
export const editChatInviteLink = defineCommand({
	name: 'edit_chat_invite_link',
	policy: { action: 'write' },
	summary:
		'Replaces the terms of an invite link (fields left out take their defaults, or stay with keep_unspecified).',
	result: { description: 'The edited link.', tdlib: 'chatInviteLink' },
	examples: [
		{ chat_id: -1000000003001, invite_link: 'https://t.me/+AbCdEfGhIjKlMnOp', member_limit: 100 },
		{
			chat_id: -1000000003001,
			invite_link: 'https://t.me/+AbCdEfGhIjKlMnOp',
			name: 'partners',
			keep_unspecified: true,
		},
	],
	methods: ['getChatInviteLink', 'editChatInviteLink', 'createPrivateChat'],
	input: fields({
		chat_id: requiredInt('chat_id', E.CHAT_ID_REQUIRED),
		invite_link: requiredText('invite_link', E.INVITE_LINK_REQUIRED),
		name: documented(optionalString('name'), { default: LINK_TERM_DEFAULTS.name }),
		...linkTermFields,
		keep_unspecified: documented(optionalBool('keep_unspecified'), {
			default: false,
			description: "true: fields left out keep the link's current values instead of their defaults",
		}),
	}),
	async run(input, ctx) {
		const { chat_id, invite_link } = input
		// Named one by one: the frame's other keys (action, request_id...) must not reach TDLib.
		const { name, expiration_date, member_limit, creates_join_request } = input
		const change = { name, expiration_date, member_limit, creates_join_request }
		const complete = Object.values(change).every((x) => x !== undefined)
		const terms =
			input.keep_unspecified === true && !complete
				? editedTerms(change, await ctx.invoke({ _: 'getChatInviteLink', chat_id, invite_link }))
				: termsOrDefaults(change)
		const request: EditRequest = { _: 'editChatInviteLink', chat_id, invite_link, ...terms }
		return ctx.invoke(request)
	},
})
