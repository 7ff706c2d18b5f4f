/**
 * The names gateways and shards meet under on the bus. One JetStream stream holds every userbot's
 * updates and authorization states (a subject per userbot, so each keeps its own last
 * `UPDATE_BUFFER_SIZE`); two key-value buckets hold who is up and which shard runs which userbot.
 */
export const EVENTS_STREAM = 'UBG_EVENTS'
export const MEMBERS_BUCKET = 'ubg-members'
export const LEASES_BUCKET = 'ubg-leases'
export const UPDATES = 'ubg.upd'
export const AUTH_STATES = 'ubg.auth'
/** Cache invalidations between gateways (core NATS: what is missed while away is a full drop). */
export const INVALIDATIONS = 'ubg.invalidate'

/** In the leases bucket: the id of the storage (`DATA_DIR/tdlib`) the leases are about. */
export const STORAGE_KEY = 'storage'
/** In the leases bucket: a fingerprint of the gateways' secrets, which they must share. */
export const SECRETS_KEY = 'secrets'

export const updateSubject = (userbotId: number) => `${UPDATES}.${userbotId}`
export const authSubject = (userbotId: number) => `${AUTH_STATES}.${userbotId}`
/** Where a shard takes supervisor protocol requests. */
export const shardSubject = (shardId: string) => `ubg.shard.${shardId}`
export const leaseKey = (userbotId: number) => `u${userbotId}`
export const shardKey = (shardId: string) => `shard.${shardId}`
export const gatewayKey = (gatewayId: string) => `gateway.${gatewayId}`

/** The userbot of an event subject (`ubg.upd.42` → 42). */
export function userbotOfSubject(subject: string): number | undefined {
	const last = subject.slice(subject.lastIndexOf('.') + 1)
	const id = Number(last)
	return /^-?\d+$/.test(last) && Number.isSafeInteger(id) ? id : undefined
}
