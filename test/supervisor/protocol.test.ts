import { describe, expect, it } from 'bun:test'
import { parseChildMessage, parseParentMessage } from '../../src/runtime/supervisor/protocol'

describe('supervisor protocol', () => {
	it('accepts each well-formed parent message', () => {
		const good = [
			{ type: 'invoke', id: 1, userbotId: 7, request: { _: 'getMe' } },
			{ type: 'start', id: 2, userbotId: 7, encryptionKey: 'a2V5' },
			{ type: 'stop', id: 3, userbotId: 7, logOut: true, removeData: false },
			{ type: 'shutdown' },
			{ type: 'shutdown', id: 4 },
			{ type: 'settings', settings: { backend: 'emulator', dataDir: '/srv/data', offline: false } },
			{
				type: 'settings',
				settings: {
					backend: 'tdlib',
					dataDir: '/srv/data',
					telegram: { apiId: 1, apiHash: '0123456789abcdef0123456789abcdef' },
					offline: true,
					runLog: '/tmp/runs.jsonl',
					label: 's1/0',
					maxFds: 300,
					probe: { intervalMs: 10_000, timeoutMs: 10_000 },
				},
			},
		]
		for (const m of good) expect(parseParentMessage(m)).toEqual({ ok: true, message: m } as never)
	})

	it("refuses settings a child could not run: the parent's configuration is their one source", () => {
		const base = { backend: 'emulator', dataDir: '/srv/data', offline: false }
		for (const settings of [
			{ ...base, backend: 'other' },
			{ ...base, dataDir: '' },
			{ backend: 'emulator', dataDir: '/srv/data' },
			{ ...base, maxFds: 0 },
			{ ...base, probe: { intervalMs: 0, timeoutMs: 10 } },
			{ ...base, telegram: { apiId: '1', apiHash: 'x' } },
		])
			expect(parseParentMessage({ type: 'settings', settings }).ok).toBe(false)
	})

	it('accepts each well-formed child message', () => {
		const good = [
			{ type: 'result', id: 1, ok: true, value: { _: 'ok' } },
			{ type: 'result', id: 1, ok: false, error: { code: 400, message: 'Chat not found' } },
			{ type: 'result', id: 1, ok: false, error: { code: 'no_client', message: 'no client' } },
			{ type: 'authorization_state', userbotId: 1, state: 'authorizationStateReady' },
			{ type: 'authorization_state', userbotId: 1, state: 'x', detail: { link: 'tg://login?token=a' } },
			{ type: 'hello', pid: 12, token: 't' },
			{ type: 'ready', pid: 12 },
			{ type: 'ready', pid: 12, capacity: { clients: 10, limit: 'descriptors', reason: 'its limit' } },
			{ type: 'log', level: 'warn', msg: 'hello' },
		]
		for (const m of good) expect(parseChildMessage(m).ok).toBe(true)
	})

	it('rejects malformed parent messages and keeps the id when there is one', () => {
		const bad: unknown[] = [
			null,
			42,
			'invoke',
			{},
			{ type: 'nope', id: 1 },
			{ type: 'invoke', id: 1, userbotId: 7 },
			{ type: 'invoke', id: 1, userbotId: 7, request: { method: 'getMe' } },
			{ type: 'invoke', id: 1, userbotId: 1.5, request: { _: 'getMe' } },
			{ type: 'invoke', id: -1, userbotId: 7, request: { _: 'getMe' } },
			{ type: 'start', id: 1, userbotId: 7 },
			{ type: 'stop', id: 1, userbotId: 7, logOut: 'yes', removeData: false },
		]
		for (const m of bad) expect(parseParentMessage(m).ok).toBe(false)
		const r = parseParentMessage({ type: 'invoke', id: 9, userbotId: 'x', request: { _: 'getMe' } })
		expect(r.ok).toBe(false)
		if (!r.ok) {
			expect(r.id).toBe(9)
			expect(r.error).toContain('userbotId')
		}
	})

	it('rejects malformed child messages', () => {
		const bad: unknown[] = [
			{ type: 'result', id: 1 },
			{ type: 'result', id: 1, ok: false },
			{ type: 'result', id: 1, ok: false, error: { message: 'x' } },
			{ type: 'authorization_state', userbotId: 1 },
			{ type: 'ready' },
			{ type: 'hello' },
			{ type: 'log', level: 'loud', msg: 'x' },
			[],
		]
		for (const m of bad) expect(parseChildMessage(m).ok).toBe(false)
	})
})
