import { describe, expect, it } from 'bun:test'
import { accounts } from '../plugins/accounts'
import { messagesPlugin } from '../plugins/commands-messages'
import { StartupError } from '../src/app'
import { getTestInstance } from './helpers'

/** `restOnly` is how Deno runs the app: no supervisor child, no `/ws`. */
describe('createApp with restOnly', () => {
	it('starts no Telegram runtime and serves no /ws, even with the emulator configured', async () => {
		const t = await getTestInstance({ TDLIB_BACKEND: 'emulator' }, { plugins: [accounts()], restOnly: true })
		try {
			expect(t.ctx.runtime).toBeNull()
			expect(t.commands.size).toBe(0)
			expect((await fetch(`${t.url}/ws`)).status).toBe(404)
			expect(await (await fetch(`${t.url}/health`)).json()).toMatchObject({ supervisor: 'not configured' })
		} finally {
			await t.stop()
		}
	})

	it('refuses a plugin with commands at start, naming its group', async () => {
		const failed = getTestInstance({}, { plugins: [accounts(), messagesPlugin], restOnly: true })
		await expect(failed).rejects.toThrow(StartupError)
		await expect(failed).rejects.toThrow(
			'command groups need the WebSocket channel, which is off here: commands-messages',
		)
	})
})
