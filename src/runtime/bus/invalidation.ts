import type { Logger } from '../../common/util/logger'
import type { Bus } from './connection'
import { INVALIDATIONS } from './subjects'

/**
 * What one gateway forgets, every gateway forgets: each drop of the auth cache (a logout, a refresh
 * token reused, a password reset, a profile changed) and each userbot invalidated or deleted is
 * published on the invalidation subject and applied by the others as if it had happened there, so
 * their revocation listeners close the sockets opened with what was revoked. A gateway that lost
 * the bus for a moment may have missed some: when it is back, it forgets everything it cached.
 */
type Invalidation<R> =
	| { origin: string; revocation: R }
	| { origin: string; userbot: number; deleted: boolean }

/**
 * What the bridge uses of the gateway's auth cache (src/server/auth/cache.ts `AuthCache`, handed in
 * by the composition root): its revocations, told and applied. `R` is the server's `Revocation`,
 * read here field by field as it comes from another gateway.
 */
export interface RevocationCache<R extends object> {
	onRevoked(listener: (revocation: R) => void): () => void
	dropSession(hash: string): void
	dropFamily(family: string): void
	dropUser(userId: number, revoked: boolean): void
	clear(): void
}

/** What the bridge uses of the gateway's userbot directory (src/server/context.ts `UserbotDirectory`). */
export interface InvalidatedDirectory<T> {
	lookup(userbotId: number): Promise<T | null>
	lookupNow?(userbotId: number): T | null | undefined
	invalidate(userbotId: number): void
	markDeleted(userbotId: number): void
	invalidateAll?(): void
}

export interface InvalidationBridge<T> {
	/** The directory to use: the given one, whose changes are told to the other gateways. */
	directory: InvalidatedDirectory<T>
	close(): void
}

export function bridgeInvalidations<R extends object, T>(opts: {
	bus: Pick<Bus, 'nc' | 'codec' | 'onReconnect'>
	origin: string
	cache: RevocationCache<R>
	directory: InvalidatedDirectory<T>
	/** A userbot deleted on another gateway: its updates and subscriptions end here too. */
	onUserbotDeleted(userbotId: number): void
	log: Logger
}): InvalidationBridge<T> {
	const { origin, cache, directory, log } = opts
	const { nc, codec } = opts.bus
	let applying = false
	const publish = (message: Invalidation<R>) => {
		try {
			nc.publish(INVALIDATIONS, codec.seal(INVALIDATIONS, message))
		} catch (err) {
			log.warn('invalidation not published', { error: String(err) })
		}
	}
	const offRevoked = cache.onRevoked((revocation) => {
		if (!applying) publish({ origin, revocation })
	})
	const apply = (m: Invalidation<R>) => {
		if ('revocation' in m) {
			const r = m.revocation
			applying = true
			try {
				if ('sessionHash' in r && typeof r.sessionHash === 'string') cache.dropSession(r.sessionHash)
				else if ('family' in r && typeof r.family === 'string') cache.dropFamily(r.family)
				else if ('userId' in r && typeof r.userId === 'number') cache.dropUser(r.userId, 'revoked' in r)
			} finally {
				applying = false
			}
			return
		}
		if (typeof m.userbot !== 'number') return
		if (m.deleted) {
			directory.markDeleted(m.userbot)
			opts.onUserbotDeleted(m.userbot)
		} else directory.invalidate(m.userbot)
	}
	const sub = nc.subscribe(INVALIDATIONS, {
		callback: (err, msg) => {
			if (err) return
			// Sealed by a gateway of this deployment, or dropped (and logged) here.
			const m = codec.open<Invalidation<R>>(msg.subject, msg.data)
			if (m === undefined) return
			try {
				if (m && typeof m === 'object' && m.origin !== origin) apply(m)
			} catch {
				log.warn('invalid invalidation dropped')
			}
		},
	})
	const offReconnect = opts.bus.onReconnect(() => {
		cache.clear()
		directory.invalidateAll?.()
		log.info('back on the bus: cached credentials and userbots forgotten')
	})
	return {
		directory: {
			lookup: (id) => directory.lookup(id),
			lookupNow: (id) => directory.lookupNow?.(id),
			invalidate(id) {
				directory.invalidate(id)
				publish({ origin, userbot: id, deleted: false })
			},
			markDeleted(id) {
				directory.markDeleted(id)
				publish({ origin, userbot: id, deleted: true })
			},
			invalidateAll: () => directory.invalidateAll?.(),
		},
		close() {
			offReconnect()
			offRevoked()
			sub.unsubscribe()
		},
	}
}
