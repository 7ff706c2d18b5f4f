import { defineCommand, fields, requiredInt } from 'userbot-gateway/plugin'
import { ChatsErrors as E } from './errors'

/** `leave_chat {chat_id}` → `leaveChat`: the account leaves a group or channel (not a private chat). */
export const leaveChat = defineCommand({
	name: 'leave_chat',
	policy: { action: 'write', destructive: true },
	summary: 'Leaves a group, supergroup or channel.',
	result: { description: "TDLib's `ok`.", tdlib: 'ok' },
	examples: [{ chat_id: -1000000003003 }],
	methods: ['leaveChat', 'createPrivateChat'],
	input: fields({ chat_id: requiredInt('chat_id', E.CHAT_ID_REQUIRED) }),
	run: (input, ctx) => ctx.invoke({ _: 'leaveChat', chat_id: input.chat_id }),
})
