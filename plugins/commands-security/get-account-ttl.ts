import { defineCommand, fields } from 'userbot-gateway/plugin'

/** `get_account_ttl` → `getAccountTtl`; the raw `accountTtl {days}`. */
export const getAccountTtl = defineCommand({
	name: 'get_account_ttl',
	policy: { action: 'read' },
	summary: 'Days of inactivity after which the account is deleted.',
	result: { description: "TDLib's account TTL.", tdlib: 'accountTtl' },
	examples: [{}],
	methods: ['getAccountTtl'],
	input: fields({}),
	run: (_input, ctx) => ctx.invoke({ _: 'getAccountTtl' }),
})
