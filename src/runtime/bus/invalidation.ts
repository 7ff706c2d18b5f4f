import type { Logger } from '../../common/util/logger'
import type { AuthCache } from '../../server/auth/cache'
import type { Revocation } from '../../server/auth/types'
import type { UserbotDirectory } from '../../server/context'
import type { Bus } from './connection'
import { INVALIDATIONS } from './subjects'

/**
 * What one gateway forgets, every gateway forgets: each drop of the auth cache (a logout, a refresh
 * token reused, a password reset, a profile changed) and each userbot invalidated or deleted is
 * published on the invalidation subject and applied by the others as if it had happened there, so
 * their revocation listeners close the sockets opened with what was revoked. A gateway that lost
 * the bus for a moment may have missed some: when it is back, it forgets everything it cached.
 */
type Invalidation =
	| { origin: string; revocation: Revocation }
	| { origin: string; userbot: number; deleted: boolean }

export interface InvalidationBridge {
	/** The directory to use: the given one, whose changes are told to the other gateways. */
	directory: UserbotDirectory
	close(): void
}

export function bridgeInvalidations(opts: {
	bus: Pick<Bus, 'nc' | 'codec' | 'onReconnect'>
	origin: string
	cache: AuthCache
	directory: UserbotDirectory
	/** A userbot deleted on another gateway: its updates and subscriptions end here too. */
	onUserbotDeleted(userbotId: number): void
	log: Logger
}): InvalidationBridge {
	const { origin, cache, directory, log } = opts
	const { nc, codec } = opts.bus
	let applying = false
	const publish = (message: Invalidation) => {
		try {
			nc.publish(INVALIDATIONS, codec.seal(INVALIDATIONS, message))
		} catch (err) {
			log.warn('invalidation not published', { error: String(err) })
		}
	}
	const offRevoked = cache.onRevoked((revocation) => {
		if (!applying) publish({ origin, revocation })
	})
	const apply = (m: Invalidation) => {
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
			const m = codec.open<Invalidation>(msg.subject, msg.data)
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
