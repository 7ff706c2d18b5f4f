import { describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type * as Td from 'tdlib-types'
import { createEmulatorBackend } from '../../src/emulator'
import type { TdUpdate } from '../../src/runtime/telegram/types'

describe('emulator updates', () => {
	it('follows a sent message with updateMessageSendSucceeded naming the temporary id', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'ubg-emu-'))
		const client = createEmulatorBackend().createClient(1, {
			databaseDirectory: dir,
			filesDirectory: dir,
			encryptionKey: '',
		})
		const updates: TdUpdate[] = []
		const succeeded = new Promise<Td.updateMessageSendSucceeded>((resolve) =>
			client.onUpdate((u) => {
				updates.push(u)
				if (u._ === 'updateMessageSendSucceeded') resolve(u)
			}),
		)
		await client.invoke({ _: 'setAuthenticationPhoneNumber', phone_number: '9996621234' })
		await client.invoke({ _: 'checkAuthenticationCode', code: '22222' })
		const sent = (await client.invoke({
			_: 'sendMessage',
			chat_id: 1001,
			input_message_content: { _: 'inputMessageText', text: { _: 'formattedText', text: 'hi' } },
		})) as Td.message
		const done = await succeeded
		expect(done.old_message_id).toBe(sent.id)
		expect(done.message.id).not.toBe(sent.id)
		expect(done.message.sending_state).toBeUndefined()
		expect(updates.map((u) => u._)).toContain('updateNewMessage')
		const states = updates.flatMap((u) =>
			u._ === 'updateAuthorizationState' ? [u.authorization_state._] : [],
		)
		expect(states).toEqual([
			'authorizationStateWaitTdlibParameters',
			'authorizationStateWaitPhoneNumber',
			'authorizationStateWaitCode',
			'authorizationStateReady',
		])
		await client.close()
		rmSync(dir, { recursive: true, force: true })
	})
})
