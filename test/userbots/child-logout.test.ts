import { afterAll, describe, expect, it } from 'bun:test'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createEmulatorBackend } from '../../src/emulator'
import { createChildHost } from '../../src/runtime/supervisor/child-host'
import type { ChildMessage } from '../../src/runtime/supervisor/protocol'

/** The supervisor child's `stop` with `logOut`, in process, on the emulator. */
const dataDir = mkdtempSync(join(tmpdir(), 'ubg-child-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

function host() {
	const sent: ChildMessage[] = []
	const waiting = new Map<number, (m: ChildMessage) => void>()
	const h = createChildHost({
		backend: createEmulatorBackend(),
		dataDir,
		logOutTimeoutMs: 50,
		send(m) {
			sent.push(m)
			if (m.type === 'result') waiting.get(m.id)?.(m)
		},
	})
	let next = 1
	const call = (msg: Record<string, unknown>) =>
		new Promise<ChildMessage>((resolve) => {
			const id = next++
			waiting.set(id, resolve)
			h.handle({ ...msg, id }, () => {})
		})
	return { sent, call }
}

describe('stopping a client with logOut', () => {
	it('closes it anyway when logOut does not answer (offline), and says so naming the userbot', async () => {
		const { sent, call } = host()
		const userbotId = 7
		const invoke = (request: Record<string, unknown>) => call({ type: 'invoke', userbotId, request })
		expect(await call({ type: 'start', userbotId, encryptionKey: 'a2V5' })).toMatchObject({ ok: true })
		await invoke({ _: 'setAuthenticationPhoneNumber', phone_number: '9996621234' })
		expect(await invoke({ _: 'checkAuthenticationCode', code: '22222' })).toMatchObject({ ok: true })
		await invoke({ _: 'setNetworkType', type: { _: 'networkTypeNone' } })

		expect(await call({ type: 'stop', userbotId, logOut: true, removeData: true })).toMatchObject({
			ok: true,
		})
		const warning = sent.find((m) => m.type === 'log' && m.level === 'warn')
		expect(warning).toMatchObject({ fields: { userbotId } })
		expect(warning?.type === 'log' && warning.msg).toContain('Telegram session may still be active')
		expect(sent).toContainEqual({ type: 'authorization_state', userbotId, state: 'authorizationStateClosed' })
		expect(existsSync(join(dataDir, 'tdlib', String(userbotId)))).toBe(false)
	})

	it('logs out and says nothing more when Telegram answers', async () => {
		const { sent, call } = host()
		const userbotId = 8
		const invoke = (request: Record<string, unknown>) => call({ type: 'invoke', userbotId, request })
		await call({ type: 'start', userbotId, encryptionKey: 'a2V5' })
		await invoke({ _: 'setAuthenticationPhoneNumber', phone_number: '9996621234' })
		await invoke({ _: 'checkAuthenticationCode', code: '22222' })
		expect(await call({ type: 'stop', userbotId, logOut: true, removeData: true })).toMatchObject({
			ok: true,
		})
		const states = sent.flatMap((m) => (m.type === 'authorization_state' ? [m.state] : []))
		expect(states.slice(-3)).toEqual([
			'authorizationStateLoggingOut',
			'authorizationStateClosing',
			'authorizationStateClosed',
		])
		expect(sent.filter((m) => m.type === 'log')).toEqual([])
	})
})
