import { defineCommand, fields, requiredInt } from 'userbot-gateway/plugin'
import { ChatsErrors as E } from './errors'

/** `get_user {user_id}` → `getUser` + `getUserFullInfo`: the user with their bio and groups in common. */
export const getUser = defineCommand({
	name: 'get_user',
	policy: { action: 'read' },
	summary: 'A user, with the full profile: bio, groups in common.',
	result: {
		description: "`{user, full_info}`: TDLib's `user` and `userFullInfo`.",
		tdlib: ['user', 'userFullInfo'],
	},
	examples: [{ user_id: 1002 }],
	methods: ['getUser', 'getUserFullInfo'],
	input: fields({ user_id: requiredInt('user_id', E.USER_ID_REQUIRED) }),
	run: async (input, ctx) => {
		const user = await ctx.invoke({ _: 'getUser', user_id: input.user_id })
		const full_info = await ctx.invoke({ _: 'getUserFullInfo', user_id: input.user_id })
		return { user, full_info }
	},
})
