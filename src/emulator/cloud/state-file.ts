import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { createSeededWorld } from '../seed'
import { type World, wallSeconds } from '../world'
import { decodeWorld, encodeWorld } from './world-state'

/**
 * The cloud's state file (`cloud.json`): loaded once by a new host, written by it alone (it holds
 * the lock), always whole: a new text goes to `cloud.json.tmp` and is renamed over the old one, so
 * a host killed mid-write leaves the previous state, never half of one.
 *
 * Writes are coalesced: a change is written `FLUSH_DELAY_MS` after it, at the soonest, and never
 * sooner after the previous write than `SPACING` times what that write took, so that on a large
 * world (every message is kept) writing takes at most 1/SPACING of the host's time. `saveNow`
 * writes at once (a log-in; a graceful stop).
 */
export const FLUSH_DELAY_MS = 100
const SPACING = 20

export interface LoadedWorld {
	world: World
	/** Set when the file could not be read: where it was moved, and why. */
	discarded?: { to: string; reason: string }
}

/** The world in `file`, or the seed's when there is none (or an unreadable one, moved aside). */
export function loadWorld(file: string): LoadedWorld {
	if (!existsSync(file)) return { world: createSeededWorld() }
	try {
		const world = decodeWorld(readFileSync(file, 'utf8'))
		// A world kept from an earlier day goes on from today (its time never goes back).
		world.clock = Math.max(world.clock, wallSeconds())
		return { world }
	} catch (err) {
		const to = `${file}.unreadable-${Date.now()}`
		renameSync(file, to)
		return { world: createSeededWorld(), discarded: { to, reason: (err as Error).message } }
	}
}

export interface StateSaver {
	/** Something may have changed: written within the coalescing window. */
	touch(): void
	/** Writes now (unless the text is the one written last). */
	saveNow(): void
	/** Stops the timer; a last `saveNow` is the caller's. */
	stop(): void
}

export function createStateSaver(
	world: World,
	file: string,
	onError: (err: unknown) => void,
	delayMs = FLUSH_DELAY_MS,
): StateSaver {
	let dirty = false
	let timer: ReturnType<typeof setTimeout> | undefined
	let lastText = ''
	let lastAt = 0
	let lastCost = 0

	const saveNow = () => {
		clearTimeout(timer)
		timer = undefined
		dirty = false
		const started = performance.now()
		try {
			const text = encodeWorld(world)
			// A request that read and changed nothing leaves the same text: nothing to write.
			if (text !== lastText) {
				writeFileSync(`${file}.tmp`, text, { mode: 0o600 })
				renameSync(`${file}.tmp`, file)
				lastText = text
			}
		} catch (err) {
			// Tried again with the next change (a full disk may have room by then).
			dirty = true
			onError(err)
		}
		lastAt = performance.now()
		lastCost = lastAt - started
	}

	return {
		touch() {
			dirty = true
			if (timer) return
			const due = Math.max(delayMs, lastAt + lastCost * SPACING - performance.now())
			timer = setTimeout(() => {
				if (dirty) saveNow()
			}, due)
		},
		saveNow,
		stop() {
			clearTimeout(timer)
			timer = undefined
		},
	}
}
