import type { Bus } from './connection'
import { EVENTS_STREAM, updateSubject } from './subjects'

/**
 * The last update number given out for a userbot, as the stream keeps it (0 when it keeps none:
 * every update aged out, or there never was one). A shard that takes a userbot over goes on from
 * here; a gateway asks it about a number it has not seen yet.
 */
export async function lastUpdateSeq(bus: Pick<Bus, 'jsm'>, userbotId: number): Promise<number> {
	const last = await bus.jsm.streams.getMessage(EVENTS_STREAM, { last_by_subj: updateSubject(userbotId) })
	if (!last) return 0
	const body = last.json<{ seq?: unknown }>()
	return typeof body.seq === 'number' && Number.isSafeInteger(body.seq) ? body.seq : 0
}
