import { describe, expect, it } from 'bun:test'
import { ownerOf } from '../../src/runtime/supervisor/rendezvous'

const ids = Array.from({ length: 3000 }, (_, i) => i + 1)
const owners = (members: string[]) => new Map(ids.map((id) => [id, ownerOf(id, members)]))

describe('rendezvous hashing', () => {
	it('gives every userbot one owner, the same whatever the order of the members', () => {
		const a = owners(['s1', 's2', 's3'])
		const b = owners(['s3', 's1', 's2'])
		expect(a).toEqual(b)
		expect(ownerOf(1, [])).toBeUndefined()
	})

	it('spreads userbots about evenly', () => {
		const counts = new Map<string, number>()
		for (const owner of owners(['s1', 's2', 's3', 's4']).values())
			counts.set(owner as string, (counts.get(owner as string) ?? 0) + 1)
		for (const n of counts.values()) expect(Math.abs(n - 750)).toBeLessThan(150)
	})

	it('moves only the share of a shard that joins or leaves', () => {
		const three = owners(['s1', 's2', 's3'])
		const four = owners(['s1', 's2', 's3', 's4'])
		let moved = 0
		for (const id of ids) {
			if (three.get(id) === four.get(id)) continue
			moved++
			// Whatever moves goes to the newcomer, and nothing moves between the others.
			expect(four.get(id)).toBe('s4')
		}
		expect(moved / ids.length).toBeGreaterThan(0.2)
		expect(moved / ids.length).toBeLessThan(0.3)
		const two = owners(['s1', 's3'])
		for (const id of ids) if (three.get(id) !== 's2') expect(two.get(id)).toBe(three.get(id))
	})
})
