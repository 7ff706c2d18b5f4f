import { afterEach, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createChildHost } from '../../src/supervisor/child-host'
import type { ChildMessage } from '../../src/supervisor/protocol'
import { heldByAnotherProcess } from '../../src/telegram/binlog-lock'
import type { Backend, BackendClient } from '../../src/telegram/types'
import { TdError, type TdUpdate } from '../../src/telegram/types'

/**
 * A start whose client TDLib refuses the folder (another process took its lock after the child
 * asked who held it): answered `held_elsewhere`, and the refused client's closing is not told as
 * the account's state: the account never ran here, and still runs where it ran.
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
