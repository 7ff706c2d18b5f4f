/**
 * The update kinds the supervisor should forward: the default ones, every subscription's, and what
 * observers want beyond them (`want`). `announce` tells the supervisor when that union changed.
 */
export interface Kinds {
	announce(): void
	/** TDLib update kinds `owner` wants forwarded whether or not a connection subscribes to them. */
	want(owner: object, kinds: readonly string[]): void
}

export function createKinds(
	defaults: ReadonlySet<string>,
	subscribed: () => Iterable<ReadonlySet<string>>,
	onKinds: (kinds: readonly string[]) => void,
): Kinds {
	/** Kinds an observer wants forwarded beyond the subscriptions', by observer. */
	const wanted = new Map<object, readonly string[]>()
	let announced = ''
	const announce = () => {
		const kinds = new Set(defaults)
		for (const list of wanted.values()) for (const k of list) kinds.add(k)
		for (const set of subscribed()) for (const k of set) kinds.add(k)
		const list = [...kinds].sort()
		const key = list.join(',')
		if (key === announced) return
		announced = key
		onKinds(list)
	}
	return {
		announce,
		want(owner, kinds) {
			if (kinds.length === 0) wanted.delete(owner)
			else wanted.set(owner, kinds)
			announce()
		},
	}
}
