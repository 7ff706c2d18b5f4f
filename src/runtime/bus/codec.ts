import type { Logger } from '../../common/util/logger'
import { type BusKey, ReplayGuard, type Sealer } from './seal'
import type { BusSealing } from './types'

/**
 * One process's end of the bus's message sealing (`seal.ts`): JSON in, sealed bytes out, and back,
 * with the replay guard. A refused message is dropped with one warning line that names the subject
 * and the reason, never its content; a flood of them is counted, not written line by line.
 */
const decoder = new TextDecoder()

export class BusCodec implements BusSealing {
	private readonly sealer: Sealer
	private readonly guard = new ReplayGuard()
	private readonly log: Logger
	private windowStart = 0
	private logged = 0
	private suppressed = 0

	constructor(
		private readonly key: BusKey,
		sender: string,
		log: Logger,
	) {
		this.sealer = key.sealer(sender)
		this.log = log.child({ component: 'bus' })
	}

	get fingerprint(): string {
		return this.key.fingerprint
	}

	seal(subject: string, value: unknown): Uint8Array {
		return this.sealer.seal(subject, JSON.stringify(value))
	}

	/**
	 * The message's JSON, or undefined when it is refused (logged). `storedAt`: when the stream or a
	 * bucket stored it (ms); such messages are read again by design, so their time is checked against
	 * that, not against now.
	 */
	open<T = unknown>(subject: string, data: Uint8Array, storedAt?: number): T | undefined {
		const opened = this.key.open(subject, data)
		if (!opened.ok) return this.refuse(subject, opened.reason)
		const replay = this.guard.check(opened.sender, opened.counter, opened.at, storedAt)
		if (replay) return this.refuse(subject, replay)
		try {
			return JSON.parse(decoder.decode(opened.body)) as T
		} catch {
			return this.refuse(subject, 'malformed')
		}
	}

	private refuse(subject: string, reason: string): undefined {
		const now = performance.now()
		if (now - this.windowStart > 10_000) {
			if (this.suppressed > 0)
				this.log.warn('bus messages refused, not each logged', { count: this.suppressed })
			this.windowStart = now
			this.logged = 0
			this.suppressed = 0
		}
		if (this.logged < 20) {
			this.logged++
			// The subject and the reason only: what the message said is not repeated.
			this.log.warn('bus message refused', { subject: subject.slice(0, 200), reason })
		} else this.suppressed++
		return undefined
	}
}
