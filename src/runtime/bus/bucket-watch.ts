import type { KvEntry } from '@nats-io/kv'
import type { Bus } from './connection'
import { READY_MS, within } from './resilient'

type Bucket = Bus['members'] | Bus['leases']

/**
 * Watches a whole bucket: `began` once the watch is made, each entry to `entry` (those already there
 * first, flagged `initial`: the last of them comes with `delta` 0), `settled` once they are all read
 * (at once for an empty bucket, which sends nothing), `failed` if the watch breaks, `ended` when it
 * ends by itself. Resolves, with its stop, once the entries already there are read; refuses after
 * READY_MS.
 */
export async function watchBucket(
	kv: Bucket,
	on: {
		began?(): void
		entry(e: KvEntry, initial: boolean): void
		settled?(): void
		failed?(err: unknown): void
		ended(): void
	},
	what: string,
): Promise<() => void> {
	const iter = await kv.watch()
	on.began?.()
	let initial = true
	let resolveInitial: () => void = () => {}
	const ready = new Promise<void>((r) => {
		resolveInitial = r
	})
	const settle = () => {
		if (!initial) return
		initial = false
		on.settled?.()
		resolveInitial()
	}
	let stopped = false
	void (async () => {
		for await (const e of iter) {
			on.entry(e, initial)
			if (initial && e.delta === 0) settle()
		}
	})()
		.catch((err: unknown) => on.failed?.(err))
		.finally(() => {
			if (!stopped) on.ended()
		})
	const status = await kv.status()
	if (status.values === 0) settle()
	try {
		await within(ready, READY_MS, what)
	} catch (err) {
		stopped = true
		iter.stop()
		throw err
	}
	return () => {
		stopped = true
		iter.stop()
	}
}
