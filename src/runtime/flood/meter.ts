import type { FloodKey, FloodLimits, Rate } from './limits'

/**
 * Token buckets as GCRA (one number per bucket: the theoretical arrival time): `count` requests at
 * once, then one every `seconds / count`. A reservation takes its tokens at the moment it may go,
 * so requests that wait are served in the order they came, and the caller knows at once how long
 * the wait is (to refuse one past its bound without taking anything).
 */
class Gcra {
	tat = Number.NEGATIVE_INFINITY
	constructor(
		readonly interval: number,
		readonly tolerance: number,
	) {}
	earliest(): number {
		return this.tat - this.tolerance
	}
	take(at: number): void {
		this.tat = Math.max(this.tat, at) + this.interval
	}
}

export interface BucketRef {
	/** A configured key, or `slow_mode`: a chat's own limit, told by Telegram, not configured. */
	key: FloodKey | 'slow_mode'
	scope: string
	/** The bucket's rate when it is not the configured one of `key` (a chat's slow mode). */
	rate?: Rate
}

export class FloodMeter {
	private readonly buckets = new Map<string, Gcra>()

	constructor(
		private readonly limits: FloodLimits,
		/** Stretches every interval (the governor's warm-up); 1 by default. */
		private readonly factor: (ref: BucketRef) => number = () => 1,
	) {}

	private bucket(ref: BucketRef): Gcra | undefined {
		const rate = ref.rate ?? (ref.key === 'slow_mode' ? undefined : this.limits[ref.key])
		if (!rate) return undefined
		// A chat whose slow mode changed gets a new bucket.
		const name = ref.rate
			? `${ref.key}:${ref.scope}:${rate.count}/${rate.seconds}`
			: `${ref.key}:${ref.scope}`
		let b = this.buckets.get(name)
		if (!b) {
			const period = rate.seconds * 1000 * this.factor(ref)
			const interval = period / rate.count
			b = new Gcra(interval, period - interval)
			this.buckets.set(name, b)
		}
		return b
	}

	/** The moment a request taking `refs` could go (`now` or later), not before `notBefore`. */
	peek(refs: readonly BucketRef[], now: number, notBefore = 0): number {
		let at = Math.max(now, notBefore)
		for (const ref of refs) {
			const b = this.bucket(ref)
			if (b) at = Math.max(at, b.earliest())
		}
		return at
	}

	/** Takes the tokens of `refs` at `at` (from `peek`). */
	take(refs: readonly BucketRef[], at: number): void {
		for (const ref of refs) this.bucket(ref)?.take(at)
	}

	/** Buckets kept (tests). */
	get size(): number {
		return this.buckets.size
	}
}
