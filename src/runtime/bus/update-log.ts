import type { Bus } from './connection'
import { anyShardUpdates, EVENTS_STREAM } from './subjects'

/**
 * The last update number given out for a userbot, as the stream keeps it (0 when it keeps none:
 * every update aged out, or there never was one), whichever shard published it. A shard that takes
 * a userbot over goes on from here; a gateway asks it about a number it has not seen yet. A message
 * that does not open (not sealed with the deployment's key) counts as none.
 */
export async function lastUpdateSeq(bus: Pick<Bus, 'jsm' | 'codec'>, userbotId: number): Promise<number> {
	const last = await bus.jsm.streams.getMessage(EVENTS_STREAM, { last_by_subj: anyShardUpdates(userbotId) })
	if (!last) return 0
	const body = bus.codec.open<{ seq?: unknown }>(last.subject, last.data, last.time.getTime())
	return typeof body?.seq === 'number' && Number.isSafeInteger(body.seq) ? body.seq : 0
}
