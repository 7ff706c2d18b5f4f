import { type SQL, sql } from 'drizzle-orm'
import type { EndpointRow, LeasedRow } from './claim'

/**
 * Deliveries stored already leased to the process that stores them (docs/webhooks.md#the-hot-path):
 * the gateway that sees an event sends it from memory, without a claim, when the event's pair has
 * nothing pending before it that is not already in that gateway's hands.
 */
export interface LeaseRequest {
	owner: string
	/** The leases' end. */
	until: number
	/**
	 * The last delivery id this process holds of the pair (its lane's), 0 when it holds none: a
	 * pending delivery of the pair after it is someone else's, and goes first. null: not leased here
	 * (this process sends to as many pairs as it may already).
	 */
	after(endpointId: number, userbotId: number): number | null
}

/** What `recordMany` stored: the deliveries leased to the caller, and whether others wait for a claim. */
export interface Recorded {
	leased: LeasedRow[]
	waiting: boolean
	/** The leased deliveries' endpoints, when the write read them already (the writer thread's). */
	endpoints?: EndpointRow[]
}

/** [endpoint, event, userbot, at, leased 0/1]: one delivery about to be inserted. */
export type DeliveryInsert = [number, number, number, number, number]

interface Tx {
	all<T>(query: SQL): Promise<T[]>
}

/**
 * Marks (`[4] = 1`) the deliveries that go in leased: those of the pairs `lease.after` names whose
 * pending index holds nothing after the id it gives. One statement, one seek per pair.
 */
export async function markLeased(tx: Tx, deliveries: DeliveryInsert[], lease: LeaseRequest): Promise<void> {
	const pairs = new Map<string, [number, number, number]>()
	for (const [endpointId, , userbotId] of deliveries) {
		const key = `${endpointId}:${userbotId}`
		if (pairs.has(key)) continue
		const after = lease.after(endpointId, userbotId)
		if (after !== null) pairs.set(key, [endpointId, userbotId, after])
	}
	if (pairs.size === 0) return
	const list = [...pairs.values()]
	const busy = await tx.all<{ i: number }>(sql`
		SELECT p.key AS i FROM json_each(${JSON.stringify(list)}) p
		WHERE EXISTS (
			SELECT 1 FROM webhook_delivery d INDEXED BY webhook_delivery_pending
			WHERE d.status = 'pending' AND d.endpoint_id = p.value ->> 0 AND d.userbot_id = p.value ->> 1
				AND d.id > p.value ->> 2
		)`)
	for (const { i } of busy) {
		const [endpointId, userbotId] = list[i] as [number, number, number]
		pairs.delete(`${endpointId}:${userbotId}`)
	}
	for (const d of deliveries) if (pairs.has(`${d[0]}:${d[2]}`)) d[4] = 1
}
