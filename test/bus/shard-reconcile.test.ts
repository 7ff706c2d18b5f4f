import { describe, expect, it } from 'bun:test'
import { createLogger } from '../../src/common/util/logger'
import type { LeaseRecord, LeaseView } from '../../src/runtime/bus/lease-view'
import type { LeaseHolder } from '../../src/runtime/bus/leases'
import { type ReconcilableShard, ShardReconcile } from '../../src/runtime/bus/shard-reconcile'

/**
 * A shard's periodic check must go on whatever one of its steps does: a step that never ends (a
 * userbot's queue stuck behind a start, a watch check that hangs) is given up after its bound, and
 * the next checks still act on what they find.
 */
function shard(overrides: Partial<ReconcilableShard>, leases: Map<number, LeaseRecord>) {
	const view = {
		up: true,
		get: (id: number) => leases.get(id),
		entries: () => leases.entries(),
	} as unknown as LeaseView
	const base: ReconcilableShard = {
		shardId: 's2',
		incarnation: () => 'new',
		busy: () => false,
		running: () => [],
		isOwner: () => true,
		alive: (h: LeaseHolder) => h.shard === 's2' && h.incarnation === 'new',
		viewFresh: () => true,
		leaseView: view,
		recheck: async () => {},
		handOver: () => {},
		reacquire: async () => true,
		stopHere: async () => {},
		clearLease: async () => {},
	}
	return { ...base, ...overrides }
}

const never = () => new Promise<never>(() => {})

describe("a shard's lease reconciliation", () => {
	it('gives up a step that never ends, and clears the next stale lease at the checks after it', async () => {
		const leases = new Map<number, LeaseRecord>([
			[1, { holder: { shard: 's2', incarnation: 'old' }, revision: 10 }],
			[2, { holder: { shard: 's2', incarnation: 'old' }, revision: 11 }],
		])
		const cleared: number[] = []
		const lines: string[] = []
		const log = createLogger('info', {}, (line) => lines.push(line))
		const r = new ShardReconcile(
			shard(
				{
					clearLease: async (id) => {
						if (id === 1) return never()
						cleared.push(id)
						leases.delete(id)
					},
				},
				leases,
			),
			log,
			50,
		)
		// Seen once, then acted on at the second check: 1 hangs and is given up, 2 is cleared.
		await r.tick()
		expect(cleared).toEqual([])
		await r.tick()
		expect(cleared).toEqual([2])
		expect(lines.some((l) => l.includes('could not reconcile a lease') && l.includes('"userbotId":1'))).toBe(
			true,
		)
		expect(lines.some((l) => l.includes('lease reconciled') && l.includes('"userbotId":2'))).toBe(true)
		expect(lines.some((l) => l.includes('lease reconciled') && l.includes('"userbotId":1'))).toBe(false)
	})

	it('goes on past a watch check that hangs', async () => {
		const leases = new Map<number, LeaseRecord>([
			[3, { holder: { shard: 'gone', incarnation: 'x' }, revision: 5 }],
		])
		const cleared: number[] = []
		const r = new ShardReconcile(
			shard({ recheck: never, clearLease: async (id) => void cleared.push(id) }, leases),
			createLogger('silent'),
			50,
		)
		await r.tick()
		await r.tick()
		expect(cleared).toEqual([3])
	})
})
