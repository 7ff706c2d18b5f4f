import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createLogger } from '../../src/common/util/logger'
import { createEmulatorBackend } from '../../src/emulator'
import { type EmulatorFloodOptions, withFloodLimits } from '../../src/emulator/flood'
import { type Clock, ManualClock } from '../../src/runtime/flood/clock'
import type { FloodLimits } from '../../src/runtime/flood/limits'
import type { LocalRuntime, RuntimeEvent } from '../../src/runtime/supervisor'
import { type GovernedRuntime, governRuntime } from '../../src/runtime/supervisor/governed-runtime'
import type { BackendClient, TdRequest } from '../../src/runtime/telegram/types'

/**
 * The governor in front of in-process emulated clients whose flood limits run on the same
 * `ManualClock`: nothing waits on a real timer, and the test says when time passes.
 */
export interface Harness {
	clock: Clock
	rt: GovernedRuntime
	events: RuntimeEvent[]
	client(userbotId: number): BackendClient
	/** Plays a runtime event as the supervisor would tell it (a restarted client's states). */
	emit(e: RuntimeEvent): void
	/** Lets every request that can go now go (one macrotask turn: the microtasks before it all ran). */
	settle(): Promise<void>
	/** Moves the clock to the next timer and settles, until `done()` or no timer is left. */
	runUntil(done: () => boolean): Promise<void>
	close(): void
}

export async function harness(opts: {
	governor: FloodLimits | null
	emulator: Omit<EmulatorFloodOptions, 'clock'>
	maxWaitMs?: number
	users: Array<[userbotId: number, phone: string]>
	/** The benchmark runs on the wall clock; tests on a manual one (the default). */
	clock?: Clock
}): Promise<Harness & { clock: ManualClock }> {
	const clock = (opts.clock ?? new ManualClock()) as ManualClock
	const dir = mkdtempSync(join(tmpdir(), 'flood-'))
	const backend = createEmulatorBackend()
	const clients = new Map<number, BackendClient>()
	const listeners = new Set<(e: RuntimeEvent) => void>()
	const emit = (e: RuntimeEvent) => {
		for (const l of listeners) l(e)
	}
	const local: LocalRuntime = {
		pid: undefined,
		fence: () => undefined,
		async invoke(userbotId, request) {
			const c = clients.get(userbotId)
			if (!c) throw new Error('no client')
			return (await c.invoke(request as TdRequest)) as never
		},
		async startClient(userbotId) {
			const folder = join(dir, String(userbotId))
			mkdirSync(join(folder, 'db'), { recursive: true })
			const c = withFloodLimits(
				backend.createClient(userbotId, {
					databaseDirectory: join(folder, 'db'),
					filesDirectory: join(folder, 'files'),
					encryptionKey: '',
				}),
				{ ...opts.emulator, clock },
			)
			c.onUpdate((u) => {
				if (u._ === 'updateAuthorizationState')
					emit({ type: 'authorization_state', userbotId, state: u.authorization_state._ })
				else emit({ type: 'update', userbotId, update: u as unknown as { _: string } })
			})
			clients.set(userbotId, c)
			await c.invoke({ _: 'getOption', name: 'version' })
			return 'authorizationStateWaitPhoneNumber'
		},
		async stopClient(userbotId) {
			await clients.get(userbotId)?.close()
			clients.delete(userbotId)
		},
		authorizationState: () => 'authorizationStateReady',
		onEvent(l) {
			listeners.add(l)
			return () => listeners.delete(l)
		},
		setUpdateFilter: () => undefined,
		onRequest: () => () => undefined,
		health: () => ({ up: true, restarts: 0, clients: clients.size, backend: 'emulator' }),
		close: async () => undefined,
	}
	const rt = governRuntime(local, {
		limits: opts.governor,
		maxWaitMs: opts.maxWaitMs ?? 30_000,
		warmupMs: 0,
		// Exact arithmetic on the manual clock: nothing travels between the governor and the cloud.
		margin: opts.clock ? undefined : 1,
		classOf: (label) => (label === 'send_message' ? 'send' : undefined),
		commandTimeoutMs: 120_000,
		clock,
		log: createLogger('silent'),
	})
	const events: RuntimeEvent[] = []
	rt.onEvent((e) => events.push(e))
	rt.setUpdateFilter(['updateMessageSendFailed'])
	for (const [id, phone] of opts.users) {
		await rt.startClient(id, { encryptionKey: '' })
		await rt.invoke(id, { _: 'setAuthenticationPhoneNumber', phone_number: phone })
		await rt.invoke(id, { _: 'checkAuthenticationCode', code: phone.charAt(5).repeat(5) })
		// A number the cloud does not know yet makes a new account.
		if ((await rt.invoke(id, { _: 'getAuthorizationState' }))._ === 'authorizationStateWaitRegistration')
			await rt.invoke(id, {
				_: 'registerUser',
				first_name: `User ${id}`,
				last_name: '',
				disable_notification: true,
			})
	}
	const settle = () => new Promise<void>((resolve) => setImmediate(resolve))
	return {
		clock,
		rt,
		events,
		client: (id) => clients.get(id) as BackendClient,
		emit,
		settle,
		async runUntil(done) {
			await settle()
			while (!done()) {
				const next = clock.next()
				if (next === undefined) break
				clock.advance(next - clock.now())
				await settle()
			}
		},
		close: () => rmSync(dir, { recursive: true, force: true }),
	}
}

export const sendText = (chatId: number, text: string) =>
	({
		_: 'sendMessage',
		chat_id: chatId,
		input_message_content: { _: 'inputMessageText', text: { _: 'formattedText', text } },
	}) as const
