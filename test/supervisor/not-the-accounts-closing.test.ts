import { afterEach, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createEmulatorBackend } from '../../src/emulator'
import { createChildHost } from '../../src/runtime/supervisor/child-host'
import type { ChildMessage } from '../../src/runtime/supervisor/protocol'
import { heldByAnotherProcess } from '../../src/runtime/telegram/binlog-lock'
import type { Backend, BackendClient } from '../../src/runtime/telegram/types'
import { TdError, type TdUpdate } from '../../src/runtime/telegram/types'

/**
 * Closings a supervisor child does not tell as the account's state:
 * - a start whose client TDLib refuses the folder (another process took its lock after the child
 *   asked who held it): answered `held_elsewhere`; the account never ran here, and runs where it ran;
 * - the clients it closes when its shard's fence runs out: the shard, cut off, starts them again as
 *   a new incarnation, and a gateway told meanwhile would take the accounts for closed.
 */
const dirs: string[] = []
afterEach(() => {
	for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

/** A backend whose clients are refused their folder as real TDLib refuses it, then close. */
function refusingBackend(): Backend {
	return {
		name: 'tdlib',
		createClient(_id, options): BackendClient {
			const listeners: Array<(u: TdUpdate) => void> = []
			const tell = (state: string) => {
				for (const l of listeners)
					l({ _: 'updateAuthorizationState', authorization_state: { _: state } } as TdUpdate)
			}
			const opened = Promise.reject(
				new TdError(400, heldByAnotherProcess(join(options.databaseDirectory, 'td.binlog'))),
			)
			opened.catch(() => undefined)
			queueMicrotask(() => tell('authorizationStateWaitTdlibParameters'))
			return {
				opened,
				invoke: () => new Promise(() => {}),
				onUpdate: (l) => listeners.push(l),
				async close() {
					tell('authorizationStateClosing')
					tell('authorizationStateClosed')
				},
			}
		},
	}
}

describe('a start refused its folder by TDLib', () => {
	it('is answered held_elsewhere, and no closing of the refused client is told', async () => {
		const dataDir = mkdtempSync(join(tmpdir(), 'ubg-refused-'))
		dirs.push(dataDir)
		const sent: ChildMessage[] = []
		const host = createChildHost({ backend: refusingBackend(), dataDir, send: (m) => sent.push(m) })
		const replied = new Promise<ChildMessage>((resolve) => {
			const poll = () => {
				const m = sent.find((x) => x.type === 'result' && x.id === 1)
				if (m) resolve(m)
				else setTimeout(poll, 5)
			}
			poll()
		})
		host.handle({ type: 'start', id: 1, userbotId: 7, encryptionKey: '' }, () => undefined)
		expect(await replied).toMatchObject({ ok: false, error: { code: 'held_elsewhere' } })
		const states = sent.flatMap((m) => (m.type === 'authorization_state' ? [m.state] : []))
		expect(states).not.toContain('authorizationStateClosed')
		expect(states).not.toContain('authorizationStateClosing')
		expect(host.size).toBe(0)
	})
})

describe('a fence that runs out', () => {
	it('closes every client without telling their closing', async () => {
		const dataDir = mkdtempSync(join(tmpdir(), 'ubg-fence-'))
		dirs.push(dataDir)
		const sent: ChildMessage[] = []
		const stops: number[] = []
		const host = createChildHost({
			backend: createEmulatorBackend(),
			dataDir,
			send: (m) => sent.push(m),
			record: (event, userbotId) => {
				if (event === 'stop') stops.push(userbotId)
			},
		})
		const answered = (id: number) =>
			new Promise<void>((resolve) => {
				const poll = () =>
					sent.some((m) => m.type === 'result' && m.id === id) ? resolve() : setTimeout(poll, 5)
				poll()
			})
		host.handle({ type: 'start', id: 1, userbotId: 1, encryptionKey: '' }, () => undefined)
		host.handle({ type: 'start', id: 2, userbotId: 2, encryptionKey: '' }, () => undefined)
		await Promise.all([answered(1), answered(2)])
		const before = sent.length
		host.handle({ type: 'fence', ms: 0 }, () => undefined)
		// The clients' own record of their stop is the moment each has closed.
		while (stops.length < 2) await Bun.sleep(5)
		expect(stops.sort()).toEqual([1, 2])
		expect(host.size).toBe(0)
		expect(sent.slice(before).filter((m) => m.type === 'authorization_state')).toEqual([])
	})
})
