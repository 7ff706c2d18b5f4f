import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { getTestInstance, type TestInstance } from '../../helpers'
import { connectWs, registerUser, type WsClient } from '../../helpers-ws'
import { commandsOf, loginUserbot } from './support'

/** The group loads with only the plugins it needs: accounts for a token, userbots for the account. */
let t: TestInstance
let c: WsClient
let userbotId: number
beforeAll(async () => {
	t = await getTestInstance({ PLUGINS: 'accounts,userbots,commands-security' })
	const owner = await registerUser(t, 'alone@example.com')
	userbotId = await loginUserbot(t, owner.companyId)
	c = await connectWs(t.url, { bearer: owner.access })
})
afterAll(async () => {
	c.close()
	await t.stop()
})

describe('commands-security alone', () => {
	it('serves its commands and no other group’s', async () => {
		expect([...t.commands.keys()].filter((name) => !name.startsWith('userbot_')).sort()).toEqual([
			'change_2fa_password',
			'change_2fa_recovery_email',
			'check_password_recovery_code',
			'check_recovery_email_address_code',
			'disable_2fa_password',
			'get_account_ttl',
			'get_password_state',
			'get_transfer_ownership_state',
			'recover_password',
			'request_password_recovery',
			'resend_recovery_email_address_code',
			'set_account_ttl',
			'verify_2fa_password',
		])
		const { ok, errorOf } = commandsOf(c, userbotId)
		expect(await ok('set_account_ttl', { days: 400 })).toEqual({ days: 400 })
		expect(await ok('get_account_ttl')).toEqual({ _: 'accountTtl', days: 400 })
		expect(await errorOf('send_message', { chat_id: 1 })).toBe('unknown action')
	})
})
