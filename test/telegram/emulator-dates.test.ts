import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SEED_CHATS } from '../../src/emulator'
import { loadWorld } from '../../src/emulator/cloud/state-file'
import { encodeWorld } from '../../src/emulator/cloud/world-state'
import { createSeededWorld, SEED_AGE_SECONDS } from '../../src/emulator/seed'
import { wallSeconds } from '../../src/emulator/world'
import { login, startRuntime, type TestRuntime } from '../supervisor/helpers'

/**
 * The emulator's dates are today's (docs/emulator.md#dates): the seed's history a few days before
 * the world was made, in order, and what happens after it from the moment it was made. Read through
 * a real supervisor child, as TDLib's answers.
 */
const ALICE = 1
const TEAM_CHAT = SEED_CHATS.basicGroup
/** More than the seed's events (members, messages, files): its dates lie within this of its start. */
const SEED_EVENTS = 200

describe('the emulator dates', () => {
	let t: TestRuntime
	/** The wall clock just before and just after the world was made (at the first log-in). */
	let before: number
	let after: number
	beforeAll(async () => {
		t = await startRuntime()
		before = wallSeconds()
		await login(t.rt, ALICE, '9996611111')
		after = wallSeconds()
	})
	afterAll(() => t.stop())

	/** Within the seed's span: from SEED_AGE_SECONDS before the world was made, one second per event. */
	const expectSeeded = (date: number) => {
		expect(date).toBeGreaterThan(before - SEED_AGE_SECONDS)
		expect(date).toBeLessThanOrEqual(after - SEED_AGE_SECONDS + SEED_EVENTS)
	}

	it('dates the seeded history a few days back, in order, after its members joined', async () => {
		// The chat's three seeded messages, by id (server id shifted as TDLib's message ids are).
		const dates: number[] = []
		for (const serverId of [1, 2, 3]) {
			const message = await t.rt.invoke(ALICE, {
				_: 'getMessage',
				chat_id: TEAM_CHAT,
				message_id: serverId * 2 ** 20,
			})
			dates.push(message.date)
		}
		for (const d of dates) expectSeeded(d)
		expect(dates).toEqual([...dates].sort((a, b) => a - b))
		expect(new Set(dates).size).toBe(dates.length)
		const member = await t.rt.invoke(ALICE, {
			_: 'getChatMember',
			chat_id: TEAM_CHAT,
			member_id: { _: 'messageSenderUser', user_id: 1004 },
		})
		expectSeeded(member.joined_chat_date)
		expect(member.joined_chat_date).toBeLessThan(dates[0] ?? 0)
	})

	it("dates what happens now from the world's making: a message sent, the sessions' activity", async () => {
		const sent = await t.rt.invoke(ALICE, {
			_: 'sendMessage',
			chat_id: TEAM_CHAT,
			input_message_content: {
				_: 'inputMessageText',
				text: { _: 'formattedText', text: 'today', entities: [] },
			},
		})
		expect(sent.date).toBeGreaterThan(before)
		expect(sent.date).toBeLessThanOrEqual(after + SEED_EVENTS)
		const { sessions } = await t.rt.invoke(ALICE, { _: 'getActiveSessions' })
		const current = sessions.find((s) => s.is_current)
		expect(current?.last_active_date).toBeGreaterThan(before)
		// A seeded account's sessions (its two seeded devices, and this one) date from its last days
		// and months (docs/emulator.md#dates): before now, none a year old.
		expect(sessions.length).toBe(3)
		const year = 365 * 86_400
		for (const s of sessions) {
			expect(s.log_in_date).toBeLessThan(before)
			expect(s.log_in_date).toBeGreaterThan(before - year)
			expect(s.last_active_date).toBeGreaterThan(before - SEED_AGE_SECONDS * 2)
			expect(s.last_active_date).toBeLessThanOrEqual(after + SEED_EVENTS)
		}
	})
})

describe('a saved emulated world', () => {
	it('goes on from today when it is loaded on a later day; what it held keeps its dates', () => {
		const dir = mkdtempSync(join(tmpdir(), 'ubg-dates-'))
		try {
			const world = createSeededWorld()
			const day = 86_400
			// The same world as if saved a year ago.
			world.clock -= 365 * day
			const first = world.groups.get(TEAM_CHAT)?.messages.get(1)
			if (!first) throw new Error('no seeded message')
			first.date -= 365 * day
			const file = join(dir, 'cloud.json')
			writeFileSync(file, encodeWorld(world))
			const before = wallSeconds()
			const loaded = loadWorld(file).world
			expect(loaded.clock).toBeGreaterThanOrEqual(before)
			expect(loaded.groups.get(TEAM_CHAT)?.messages.get(1)?.date).toBe(first.date)
			expect(loaded.now()).toBe(loaded.clock)
		} finally {
			rmSync(dir, { recursive: true, force: true })
		}
	})
})
