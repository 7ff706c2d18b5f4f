import { defineCommand, fields, listCap, requiredIntList } from 'userbot-gateway/plugin'
import { ChatsErrors as E } from './errors'

/** `remove_contacts {user_ids}` → `removeContacts`. */
export const removeContacts = defineCommand({
	name: 'remove_contacts',
	policy: { action: 'write', destructive: true },
	summary: "Removes users from the account's contacts.",
	result: { description: "TDLib's `ok`.", tdlib: 'ok' },
	examples: [{ user_ids: [1003] }],
	methods: ['removeContacts'],
	input: fields({
		user_ids: requiredIntList(
			'user_ids',
			E.USER_IDS_EMPTY,
			E.USER_IDS_REQUIRED,
			listCap('user_ids', 'user ids'),
		),
	}),
	run: (input, ctx) => ctx.invoke({ _: 'removeContacts', user_ids: input.user_ids }),
})
