import { defineCommand, fields, requiredInt } from 'userbot-gateway/plugin'
import * as v from 'valibot'
import { ACCOUNT_TTL_MAX_DAYS, ACCOUNT_TTL_MIN_DAYS, SecurityErrors as E } from './errors'

const days = v.pipe(
	requiredInt('days', E.DAYS_REQUIRED),
	v.check((d) => d >= ACCOUNT_TTL_MIN_DAYS && d <= ACCOUNT_TTL_MAX_DAYS, E.DAYS_OUT_OF_RANGE),
)

/** `set_account_ttl` → `setAccountTtl` (the days nested in `ttl: accountTtl`); echoes `{days}`. */
export const setAccountTtl = defineCommand({
	name: 'set_account_ttl',
	policy: { action: 'manage', permission: 'security.account_ttl' },
	audit: { action: 'account.ttl_changed', detail: (input) => ({ days: input.days }) },
	summary: 'Sets the days of inactivity after which the account is deleted (30 to 730).',
	result: {
		description: 'An echo of the days set.',
		schema: { type: 'object', properties: { days: { type: 'integer' } }, required: ['days'] },
	},
	examples: [{ days: 365 }],
	methods: ['setAccountTtl'],
	input: fields({ days }),
	async run(input, ctx) {
		await ctx.invoke({ _: 'setAccountTtl', ttl: { _: 'accountTtl', days: input.days } })
		return { days: input.days }
	},
})
