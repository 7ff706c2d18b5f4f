import { describe, expect, it } from 'bun:test'
import { FEED_LAG_MS, GatewayReconcile, type Reconcilable } from '../../src/runtime/bus/gateway-health'

/** The gateway's periodic check, on its own: what `/health` says of leases and the feed, check by check. */
describe('a gateway’s reconciliation of the bus', () => {
	const target = (state: {
		mismatches: string[]
		feed: { up: boolean; pending: number; behindMs: number }
		connected: boolean
	}) => {
		const calls = { recheck: 0, owners: 0 }
		const t: Reconcilable = {
			recheck: async () => {
				calls.recheck++
			},
			reconcileOwners: () => {
				calls.owners++
			},
			leaseMismatches: () => state.mismatches,
			connected: () => state.connected,
			feed: () => state.feed,
		}
		return { t, calls }
	}

	it('counts a lease mismatch seen at two checks in a row, and forgets it once it is gone', async () => {
		const state = { mismatches: ['7:s9=x'], feed: { up: true, pending: 0, behindMs: 0 }, connected: true }
		const { t, calls } = target(state)
		const r = new GatewayReconcile(t, 1000)
		await r.tick()
		// Once: a hand-over in progress, not a mismatch.
		expect(r.health()).toMatchObject({ lease_mismatches: 0, degraded: false })
		await r.tick()
		expect(r.health()).toMatchObject({ lease_mismatches: 1, degraded: true })
		state.mismatches = []
		await r.tick()
		expect(r.health()).toMatchObject({ lease_mismatches: 0, degraded: false })
		// Each check also makes again what is down, and reconciles ownership.
		expect(calls).toEqual({ recheck: 3, owners: 3 })
	})

	it('is degraded while the feed is down or behind, and while the bus is not connected', () => {
		const state = {
			mismatches: [] as string[],
			feed: { up: false, pending: 0, behindMs: 0 },
			connected: true,
		}
		const r = new GatewayReconcile(target(state).t, 1000)
		expect(r.health()).toMatchObject({ degraded: true, feed: { up: false } })
		state.feed = { up: true, pending: 40, behindMs: FEED_LAG_MS + 1 }
		expect(r.health()).toMatchObject({ degraded: true, feed: { pending: 40, behind_ms: FEED_LAG_MS + 1 } })
		state.feed = { up: true, pending: 3, behindMs: 100 }
		expect(r.health().degraded).toBe(false)
		state.connected = false
		expect(r.health()).toMatchObject({ connected: false, degraded: true })
	})
})
