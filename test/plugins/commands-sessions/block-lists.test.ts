import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import type * as Td from 'tdlib-types'
import { createMessagingFixture, type MessagingFixture, type WsClient } from '../../helpers-ws'
import { runner } from './support'

/**
 * Block lists over the real WebSocket, gateway and supervisor, on the emulator (the fixture's
 * userbot is Bob, 1002).
 */
let f: MessagingFixture
let c: WsClient
let r: ReturnType<typeof runner>

beforeAll(async () => {
	f = await createMessagingFixture()
	c = await f.connect()
	r = runner(f, c)
})
afterAll(() => f.stop())

const user = (user_id: number): Td.messageSenderUser => ({ _: 'messageSenderUser', user_id })
const blocked = async (fields: Record<string, unknown> = {}) =>
	(await r.ok('get_blocked_users', fields)) as Td.messageSenders
const BLOCK_LIST = 'block_list must be a library block list type'

describe('block_user, unblock_user and get_blocked_users', () => {
	it('blocks on the main list by default, on the stories list when asked, and unblocks from both', async () => {
		expect(await r.ok('block_user', { user_id: 1001 })).toEqual({ _: 'ok' })
		expect(await r.ok('block_user', { user_id: 1003, block_list: 'blockListStories' })).toEqual({ _: 'ok' })
		expect(await r.ok('block_user', { user_id: 1004, block_list: { '@type': 'blockListMain' } })).toEqual({
			_: 'ok',
		})
		expect(await blocked()).toEqual({
			_: 'messageSenders',
			total_count: 2,
			senders: [user(1004), user(1001)],
		})
		expect((await blocked({ block_list: { '@type': 'blockListStories' } })).senders).toEqual([user(1003)])
		expect((await blocked({ block_list: { _: 'blockListMain' }, offset: 1, limit: 1 })).senders).toEqual([
			user(1001),
		])
		// is_blocked false: off both lists, whatever block_list says.
		expect(
			await r.ok('block_user', { user_id: 1003, is_blocked: false, block_list: 'blockListMain' }),
		).toEqual({
			_: 'ok',
		})
		expect((await blocked({ block_list: 'blockListStories' })).total_count).toBe(0)
		expect(await r.ok('unblock_user', { user_id: 1004 })).toEqual({ _: 'ok' })
		expect((await blocked()).senders).toEqual([user(1001)])
		expect(await r.ok('block_user', { user_id: 1001, is_blocked: true, block_list: null })).toEqual({
			_: 'ok',
		})
		await r.ok('unblock_user', { user_id: '1001' })
		expect(await blocked({ block_list: null })).toEqual({ _: 'messageSenders', total_count: 0, senders: [] })
	})

	it('answers their validation errors', async () => {
		expect(await r.errorOf('block_user')).toBe('user_id is required')
		expect(await r.errorOf('block_user', { user_id: 'alice' })).toBe('user_id must be an integer')
		expect(await r.errorOf('block_user', { user_id: 1001, is_blocked: 'no' })).toBe(
			'is_blocked must be a boolean',
		)
		for (const block_list of [
			'blockListArchive',
			'',
			42,
			[],
			{},
			{ '@type': 'blockListMain', reason: 'spam' },
			{ '@type': 'blockListMain', _: 'blockListStories' },
			{ '@type': 'messageSenderUser', user_id: 1 },
		]) {
			expect(await r.errorOf('block_user', { user_id: 1001, block_list })).toBe(BLOCK_LIST)
			expect(await r.errorOf('get_blocked_users', { block_list })).toBe(BLOCK_LIST)
		}
		expect(await r.errorOf('unblock_user')).toBe('user_id is required')
		expect(await r.errorOf('unblock_user', { user_id: null })).toBe('user_id is required')
		expect(await r.errorOf('get_blocked_users', { offset: 'first' })).toBe('offset must be an integer')
		expect(await r.errorOf('get_blocked_users', { limit: 2 ** 31 })).toBe('limit is out of range')
	})

	it("passes TDLib's errors through", async () => {
		expect(await r.errorOf('block_user', { user_id: 1002 })).toBe("Can't block self")
		expect(await r.errorOf('unblock_user', { user_id: 1002 })).toBe("Can't unblock self")
		expect(await r.errorOf('block_user', { user_id: 424242 })).toBe('Unknown user identifier specified')
		expect(await r.errorOf('get_blocked_users', { offset: -1 })).toBe('Parameter offset must be non-negative')
		expect(await r.errorOf('get_blocked_users', { limit: 0 })).toBe('Parameter limit must be positive')
	})
})
