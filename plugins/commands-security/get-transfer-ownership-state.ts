import { defineCommand, fields } from 'userbot-gateway/plugin'

/**
 * `get_transfer_ownership_state` → `canTransferOwnership`; the raw result: `…Ok`, `…PasswordNeeded`,
 * `…PasswordTooFresh {retry_after}` or `…SessionTooFresh {retry_after}`.
 */
export const getTransferOwnershipState = defineCommand({
	name: 'get_transfer_ownership_state',
	methods: ['canTransferOwnership'],
	input: fields({}),
	run: (_input, ctx) => ctx.invoke({ _: 'canTransferOwnership' }),
})
