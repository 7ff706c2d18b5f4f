import { defineCommand, fields } from 'userbot-gateway/plugin'

/**
 * `get_transfer_ownership_state` → `canTransferOwnership`; the raw result: `…Ok`, `…PasswordNeeded`,
 * `…PasswordTooFresh {retry_after}` or `…SessionTooFresh {retry_after}`.
 */
export const getTransferOwnershipState = defineCommand({
	name: 'get_transfer_ownership_state',
	policy: { action: 'read' },
	summary: 'Whether the account may transfer chat ownership now, and if not why.',
	result: {
		description: "TDLib's answer.",
		tdlib: [
			'canTransferOwnershipResultOk',
			'canTransferOwnershipResultPasswordNeeded',
			'canTransferOwnershipResultPasswordTooFresh',
			'canTransferOwnershipResultSessionTooFresh',
		],
	},
	examples: [{}],
	methods: ['canTransferOwnership'],
	input: fields({}),
	run: (_input, ctx) => ctx.invoke({ _: 'canTransferOwnership' }),
})
