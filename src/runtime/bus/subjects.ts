/**
 * The names gateways and shards meet under on the bus, laid out so that the NATS server's
 * permissions can say "only its own" (docs/nats/nats-server.conf): every subject a shard publishes
 * on, and the one it takes requests on, carries its `SHARD_ID`.
 *
 * One JetStream stream holds every userbot's updates and authorization states, a subject per shard
 * and userbot (`ubg.upd.<shard>.<userbot>`); two key-value buckets hold who is up (`shard.<id>`,
 * `gateway.<id>`) and which shard runs which userbot (`lease.<userbot>`).
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
/** In the leases bucket: a fingerprint of the key that seals the bus's messages (shards check it). */
export const BUS_KEY_KEY = 'bus-key'

export const updateSubject = (shardId: string, userbotId: number) => `${UPDATES}.${shardId}.${userbotId}`
export const authSubject = (shardId: string, userbotId: number) => `${AUTH_STATES}.${shardId}.${userbotId}`
/** Every shard's updates of one userbot (the stream's last one is its last number). */
export const anyShardUpdates = (userbotId: number) => `${UPDATES}.*.${userbotId}`
/** Where a shard takes supervisor protocol requests. */
export const shardSubject = (shardId: string) => `ubg.req.${shardId}`
/** The prefix of a connection's inboxes (replies, JetStream deliveries): its permissions name it. */
export const inboxPrefix = (role: 'gateway' | 'shard', id: string) => `ubg.inbox.${role}.${id}`
export const leaseKey = (userbotId: number) => `lease.${userbotId}`
export const shardKey = (shardId: string) => `shard.${shardId}`
export const gatewayKey = (gatewayId: string) => `gateway.${gatewayId}`
/** The subject a bucket's key is stored under: what its value is sealed for. */
export const kvSubject = (bucket: string, key: string) => `$KV.${bucket}.${key}`

/** The shard and userbot of an event subject (`ubg.upd.s1.42` → s1, 42). */
export function eventSubjectParts(subject: string): { shardId: string; userbotId: number } | undefined {
	const parts = subject.split('.')
	if (parts.length !== 4) return undefined
	const [, , shardId, last] = parts as [string, string, string, string]
	const id = Number(last)
	return /^-?\d+$/.test(last) && Number.isSafeInteger(id) && shardId !== ''
		? { shardId, userbotId: id }
		: undefined
}

/** The userbot of a lease key (`lease.42` → 42). */
export function userbotOfLeaseKey(key: string): number | undefined {
	if (!key.startsWith('lease.')) return undefined
	const last = key.slice('lease.'.length)
	const id = Number(last)
	return /^-?\d+$/.test(last) && Number.isSafeInteger(id) ? id : undefined
}
