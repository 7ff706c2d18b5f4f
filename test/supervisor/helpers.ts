import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createLogger } from '../../src/common/util/logger'
import { SupervisorClient, type SupervisorOptions } from '../../src/runtime/supervisor/client'
import type { RuntimeEvent } from '../../src/runtime/supervisor/types'

export interface TestRuntime {
	rt: SupervisorClient
	dataDir: string
	events: RuntimeEvent[]
	/** Resolves with the first event (already seen or to come) that matches. */
	waitFor(match: (e: RuntimeEvent) => boolean): Promise<RuntimeEvent>
	stop(): Promise<void>
}

/** A real supervisor child on a temporary data folder. */
export async function startRuntime(opts: Partial<SupervisorOptions> = {}): Promise<TestRuntime> {
	const dataDir = mkdtempSync(join(tmpdir(), 'ubg-sup-'))
	const rt = new SupervisorClient({
		backend: 'emulator',
		dataDir,
		transport: 'socket',
		commandTimeoutMs: 5_000,
		log: createLogger((process.env.TEST_LOG_LEVEL as 'debug' | undefined) ?? 'silent'),
		restartMinMs: 20,
		...opts,
		// Real TDLib in a test never dials out.
		settings: { offline: true, ...opts.settings },
	})
	const events: RuntimeEvent[] = []
	const waiters: Array<{ match: (e: RuntimeEvent) => boolean; resolve: (e: RuntimeEvent) => void }> = []
	rt.onEvent((e) => {
		events.push(e)
		for (const w of [...waiters]) {
			if (w.match(e)) {
				waiters.splice(waiters.indexOf(w), 1)
				w.resolve(e)
			}
		}
	})
	await rt.start()
	return {
		rt,
		dataDir,
		events,
		waitFor(match) {
			const seen = events.find(match)
			if (seen) return Promise.resolve(seen)
			return new Promise((resolve) => waiters.push({ match, resolve }))
		},
		async stop() {
			await rt.close()
			rmSync(dataDir, { recursive: true, force: true })
		},
	}
}

/** Logs a userbot in on the emulator with the test-DC code convention. */
export async function login(rt: SupervisorClient, userbotId: number, phone = '9996621234') {
	await rt.startClient(userbotId, { encryptionKey: 'dGVzdC1rZXk=' })
	await rt.invoke(userbotId, { _: 'setAuthenticationPhoneNumber', phone_number: phone })
	await rt.invoke(userbotId, { _: 'checkAuthenticationCode', code: phone.charAt(5).repeat(5) })
}

export const isAlive = (pid: number) => {
	try {
		process.kill(pid, 0)
		return true
	} catch {
		return false
	}
}

/** Resolves with what `p` rejects with; fails when it resolves. */
export async function rejection(p: Promise<unknown>): Promise<unknown> {
	try {
		await p
	} catch (err) {
		return err
	}
	throw new Error('expected a rejection')
}
