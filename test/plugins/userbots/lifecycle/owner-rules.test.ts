import { afterAll, describe, expect, it } from 'bun:test'
import { UserbotStates } from '../../../../plugins/userbots/lifecycle/states'
import { successReply } from '../../../../src/common/wire/envelope'
import type { AppContext, CompanyEvent } from '../../../../src/server/context'
import { createUserbot, serveFresh, signUp } from '../support'

/**
 * The rules of the one owner of a userbot's state (plugins/userbots/lifecycle/states.ts), on a real
 * database (states are stored on the userbot's row before they are pushed).
 */
const server = await serveFresh()
afterAll(() => server.dispose())

const READY = 'authorizationStateReady'
const PARAMETERS = 'authorizationStateWaitTdlibParameters'
const WAIT_PHONE = 'authorizationStateWaitPhoneNumber'
const LOGGING_OUT = 'authorizationStateLoggingOut'
const CLOSING = 'authorizationStateClosing'
const CLOSED = 'authorizationStateClosed'

/** An owner whose pushes are recorded, over the test server's database; no runtime behind it. */
function owner(cleared: number[] = []) {
	const pushed: CompanyEvent[] = []
	const states = new UserbotStates({
		db: server.ctx.db,
		log: server.ctx.log,
		runtime: null as AppContext['runtime'],
		publish: (e) => pushed.push(e),
		updates: { clear: (id) => cleared.push(id), end: () => {} },
	})
	const event = (userbotId: number, state: string, detail?: Record<string, unknown>) =>
		states.handle({ type: 'authorization_state', userbotId, state, ...(detail ? { detail } : {}) })
	const pushedStates = () =>
		pushed.map(
			(e) =>
				(e.message as { payload: { result: { authorization_state: string } } }).payload.result
					.authorization_state,
		)
	return { states, pushed, event, pushedStates }
}

/** A start whose reply the test gives when it wants. */
function heldStart() {
	let answer: (state: string) => void = () => undefined
	const reply = new Promise<string>((resolve) => {
		answer = resolve
	})
	return { send: () => reply, answer }
}

async function newUserbot() {
	const id = await createUserbot(await signUp(server.url))
	const record = await server.ctx.userbots.lookup(id)
	if (!record) throw new Error('no userbot')
	return { id, companyId: record.companyId }
}

describe('the userbot state owner', () => {
	it("ignores a deleted userbot's states but its closing, which still reaches its company", async () => {
		const { id, companyId } = await newUserbot()
		const o = owner()
		o.states.remember(id, companyId)
		o.event(id, WAIT_PHONE)
		await o.states.drain()
		expect(o.states.markDeleted(id)).toBe(false)
		expect(o.states.markDeleted(id)).toBe(true)
		o.event(id, READY)
		o.event(id, CLOSING)
		await o.states.drain()
		expect(o.states.view(id)).toEqual({ phase: 'deleted', state: WAIT_PHONE, seq: 1 })
		expect(o.pushedStates()).toEqual([WAIT_PHONE, CLOSING])
		expect(() => o.states.assertLive(id)).toThrow('Not found.')
	})

	it('keeps counting across a runtime restart: a step waiting from before wakes on the next state', async () => {
		const { id, companyId } = await newUserbot()
		const o = owner()
		o.states.remember(id, companyId)
		o.event(id, WAIT_PHONE)
		o.event(id, READY)
		expect(o.states.seq(id)).toBe(2)
		o.states.reset()
		expect(o.states.view(id)).toEqual({ phase: 'unknown', state: undefined, seq: 2 })
		const woken = o.states.next(id, 2, 60_000)
		o.event(id, READY)
		await woken
		expect(o.states.view(id)).toEqual({ phase: 'ready', state: READY, seq: 3 })
		await o.states.drain()
	})

	it('gives a local and a remote runtime the same view of a log-out and a new start', async () => {
		const { id, companyId } = await newUserbot()
		// The local supervisor: one channel, so the old client's closing comes before the new start.
		const local = owner()
		local.states.remember(id, companyId)
		for (const s of [READY, LOGGING_OUT, CLOSING, CLOSED]) local.event(id, s)
		const localStart = heldStart()
		const localStarted = local.states.start(id, localStart.send)
		expect(local.states.phase(id)).toBe('starting')
		local.event(id, PARAMETERS)
		local.event(id, WAIT_PHONE)
		localStart.answer(WAIT_PHONE)
		await localStarted
		// A shard on the bus: the start's reply comes straight back, the old client's closing later
		// through the event stream, then the new client's own states.
		const remote = owner()
		remote.states.remember(id, companyId)
		remote.event(id, READY)
		const remoteStart = heldStart()
		const remoteStarted = remote.states.start(id, remoteStart.send)
		expect(remote.states.phase(id)).toBe('starting')
		remoteStart.answer(WAIT_PHONE)
		await remoteStarted
		const afterReply = remote.states.view(id)
		for (const s of [LOGGING_OUT, CLOSING, CLOSED]) remote.event(id, s)
		// The old client's closing, heard after the new one started, is not the state now.
		expect(remote.states.view(id).state).toBe(WAIT_PHONE)
		expect(remote.states.current(id, READY)).toBe(WAIT_PHONE)
		remote.event(id, PARAMETERS)
		remote.event(id, WAIT_PHONE)
		expect(afterReply).toMatchObject({ phase: 'logging_in', state: WAIT_PHONE })
		expect(remote.states.view(id)).toMatchObject({ phase: 'logging_in', state: WAIT_PHONE })
		expect(local.states.view(id)).toMatchObject({ phase: 'logging_in', state: WAIT_PHONE })
		await local.states.drain()
		await remote.states.drain()
		// Every state heard is pushed, in the order heard, by either way.
		expect(remote.pushedStates()).toEqual(local.pushedStates())
		// After the new client's first state, its own closing counts again.
		remote.event(id, LOGGING_OUT)
		expect(remote.states.phase(id)).toBe('ending')
		await remote.states.drain()
	})

	it('drops what the update hub kept of an account that logs out, not of one that is deleted', async () => {
		const { id, companyId } = await newUserbot()
		const cleared: number[] = []
		const o = owner(cleared)
		o.states.remember(id, companyId)
		o.event(id, READY)
		o.event(id, LOGGING_OUT)
		expect(cleared).toEqual([id])
		o.states.markDeleted(id)
		o.event(id, LOGGING_OUT)
		expect(cleared).toEqual([id])
		await o.states.drain()
	})

	it('pushes the frame the one reply builder makes, with only what a client may see', async () => {
		const { id, companyId } = await newUserbot()
		const o = owner()
		o.states.remember(id, companyId)
		const detail = {
			_: 'authorizationStateWaitPassword',
			password_hint: 'the usual',
			has_recovery_email_address: true,
			recovery_email_address_pattern: 'a***@example.com',
		}
		o.event(id, 'authorizationStateWaitPassword', detail)
		await o.states.drain()
		expect(o.pushed).toHaveLength(1)
		const sent = o.pushed[0]
		expect(sent).toMatchObject({ companyId, userbotId: id })
		const built = successReply(
			id,
			'authorization_state',
			{
				authorization_state: 'authorizationStateWaitPassword',
				password_hint: 'the usual',
				has_recovery_email_address: true,
			},
			undefined,
		)
		expect(JSON.stringify(sent?.message)).toBe(built)
	})
})
