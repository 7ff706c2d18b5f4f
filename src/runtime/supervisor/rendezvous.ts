/**
 * Rendezvous (highest random weight) hashing: a userbot belongs to the member whose hash of
 * (member, userbot) is highest. Every process that sees the same members picks the same owner
 * without talking to the others, and adding or losing a member moves only the userbots whose
 * highest score was (or now is) that member's: about 1/N of them.
 *
 * The hash is written out here (FNV-1a, then murmur3's finaliser) rather than taken from the
 * runtime, so that processes of different builds and machines agree.
 */
function score(member: string, key: number): number {
	let h = 0x811c9dc5
	const text = `${member}\u0000${key}`
	for (let i = 0; i < text.length; i++) {
		h ^= text.charCodeAt(i)
		h = Math.imul(h, 0x01000193)
	}
	h ^= h >>> 16
	h = Math.imul(h, 0x85ebca6b)
	h ^= h >>> 13
	h = Math.imul(h, 0xc2b2ae35)
	h ^= h >>> 16
	return h >>> 0
}

/** The member that owns `key`, or undefined when there is none. Ties go to the smaller name. */
export function ownerOf<T extends string>(key: number, members: Iterable<T>): T | undefined {
	let best: T | undefined
	let bestScore = -1
	for (const m of members) {
		const s = score(m, key)
		if (s > bestScore || (s === bestScore && best !== undefined && m < best)) {
			best = m
			bestScore = s
		}
	}
	return best
}
