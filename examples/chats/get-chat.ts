import { defineCommand, fields, requiredInt } from 'userbot-gateway/plugin'
import { ChatsErrors as E } from './errors'

/** `example_get_chat {chat_id}` → `getChat`: TDLib's `chat`, as the account sees it. */
export const getChat = defineCommand({
	name: 'example_get_chat',
	policy: { action: 'read' },
	summary: 'One chat the account knows, by id.',
	methods: ['getChat'],
	input: fields({ chat_id: requiredInt('chat_id', E.CHAT_ID_REQUIRED) }),
	result: { description: "TDLib's chat object.", tdlib: 'chat' },
	examples: [{ chat_id: -1000000003001 }],
	run: (input, ctx) => ctx.invoke({ _: 'getChat', chat_id: input.chat_id }),
})
