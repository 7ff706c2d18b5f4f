import { describe, expect, it } from 'bun:test'
import { type LiveShard, parseRoom, place } from '../../src/runtime/bus/placement'
import { ownerOf } from '../../src/runtime/supervisor/rendezvous'

/** The placement rule every gateway and shard computes (src/runtime/bus/placement.ts), without a bus. */
const room = (clients: number, used: number) => ({ clients, used, reason: `${clients} places` })
const shards = (entries: Record<string, LiveShard['room'] | null>) =>
	new Map(
		Object.entries(entries).map(([id, r]) => [
			id,
			r ? { incarnation: `${id}-1`, room: r } : { incarnation: `${id}-1` },
		]),
	)
/** A userbot whose home (the hash's choice) among `ids` is `home`. */
const homedOn = (home: string, ids: string[]) =>
	Array.from({ length: 100 }, (_, i) => i + 1).find((id) => ownerOf(id, ids) === home) as number

describe('placement by room', () => {
	const ids = ['s1', 's2', 's3']
	const id = homedOn('s1', ids)

	it('runs a userbot at home while home has room', () => {
		expect(place(id, shards({ s1: room(3, 2), s2: room(9, 0), s3: null }))).toEqual({
			shard: 's1',
			byRoom: false,
		})
	})

	it('places one whose home is full on the shard with the most room', () => {
		expect(place(id, shards({ s1: room(3, 3), s2: room(9, 5), s3: room(9, 1) }))).toEqual({
			shard: 's3',
			byRoom: true,
		})
		// A shard that advertises no limit has the most room of all.
		expect(place(id, shards({ s1: room(3, 3), s2: room(9, 1), s3: null }))).toEqual({
			shard: 's3',
			byRoom: true,
		})
	})

	it('keeps one placed by room where it runs, also once home has room again', () => {
		const holder = { shard: 's2', incarnation: 's2-1', placed: 'room' as const }
		expect(place(id, shards({ s1: room(3, 0), s2: room(9, 9), s3: room(9, 0) }), holder)).toEqual({
			shard: 's2',
			byRoom: true,
		})
		// Its shard gone (another incarnation now): placed afresh.
		const gone = { ...holder, incarnation: 's2-0' }
		expect(place(id, shards({ s1: room(3, 0), s2: room(9, 0), s3: room(9, 0) }), gone)).toEqual({
			shard: 's1',
			byRoom: false,
		})
	})

	it('moves one held elsewhere by hash home when home has room, and never to a full home', () => {
		const holder = { shard: 's2', incarnation: 's2-1' }
		expect(place(id, shards({ s1: room(3, 1), s2: room(9, 1), s3: null }), holder)).toEqual({
			shard: 's1',
			byRoom: false,
		})
		expect(place(id, shards({ s1: room(3, 3), s2: room(9, 1), s3: null }), holder)).toEqual({
			shard: 's2',
			byRoom: true,
		})
	})

	it('refuses when every shard is full, naming each limit', () => {
		const p = place(id, shards({ s1: room(3, 3), s2: room(1, 1), s3: room(2, 2) }))
		expect(p && 'full' in p && p.full.code).toBe('capacity')
		expect(p && 'full' in p && p.full.message).toBe(
			'capacity reached: 6 userbots run on 3 shards, every one full (s1: 3 places; s2: 1 places; s3: 2 places)',
		)
		expect(place(id, new Map())).toBeUndefined()
	})

	it('takes only a well-formed room', () => {
		expect(parseRoom(undefined)).toBeUndefined()
		expect(parseRoom({ clients: 3, used: 1, reason: 'r' })).toEqual({ clients: 3, used: 1, reason: 'r' })
		for (const bad of [
			null,
			'3',
			[],
			{ clients: -1, used: 0, reason: 'r' },
			{ clients: 1, used: 0.5, reason: 'r' },
			{ clients: 1e12, used: 0, reason: 'r' },
			{ clients: 1, used: 0, reason: 7 },
			{ clients: 1, used: 0, reason: 'r'.repeat(301) },
			{ clients: 1, used: 0, reason: 'r', more: 1 },
		])
			expect(parseRoom(bad)).toBeNull()
	})
})
