import { appendFileSync, mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import type { RequestEvent, TelegramRuntime } from './types'

/**
 * The conformance record: every TDLib request the runtime sends, one JSON line per new shape, with
 * what sent it. `npm test` writes it (TDLIB_REQUEST_LOG); `npm run conformance` replays it to real
 * TDLib, which judges each request that our tests only ever showed to the emulator.
 *
 * A shape is the request with its values reduced to their JSON types (objects keep their type name
 * and keys, lists the set of their items' shapes): two `send_message` texts are one shape, a text
 * with entities another.
 */
export interface RecordedRequest {
	/** The command or lifecycle step that sent it; `direct` for test code calling the runtime. */
	label: string
	method: string
	shape: string
	request: { _: string }
}

export function shapeOf(value: unknown): unknown {
	if (value === null || value === undefined) return 'null'
	if (Array.isArray(value)) {
		const shapes = new Map<string, unknown>()
		for (const item of value) {
			const s = shapeOf(item)
			shapes.set(JSON.stringify(s), s)
		}
		return [...shapes.keys()].sort().map((k) => shapes.get(k))
	}
	if (typeof value === 'object') {
		const out: Record<string, unknown> = {}
		for (const key of Object.keys(value).sort()) {
			const field = (value as Record<string, unknown>)[key]
			out[key] = key === '_' ? field : shapeOf(field)
		}
		return out
	}
	return typeof value
}

/** Fields whose values are secrets (2FA and proxy passwords, log-in and recovery codes, proxy secrets). */
const SECRET_FIELD = /password|^code$|recovery_code|^secret$/

/**
 * The request with every secret string replaced by a placeholder of the same type: the record keeps
 * what TDLib would parse, and no password or code of a test (or of anyone) is written to disk.
 */
export function redacted(value: unknown, key = ''): unknown {
	if (typeof value === 'string') return SECRET_FIELD.test(key) ? 'redacted' : value
	if (Array.isArray(value)) return value.map((item) => redacted(item, key))
	if (typeof value === 'object' && value !== null) {
		const out: Record<string, unknown> = {}
		for (const [k, v] of Object.entries(value)) out[k] = redacted(v, k)
		return out
	}
	return value
}

/** Appends each new shape of request to `path`, secrets redacted; returns the unsubscribe. */
export function recordRequests(runtime: TelegramRuntime, path: string): () => void {
	mkdirSync(dirname(path), { recursive: true })
	const seen = new Set<string>()
	return runtime.onRequest((event: RequestEvent) => {
		// The emulator's own test methods (`emulatorDelay`...) are no TDLib requests.
		if (event.request._.startsWith('emulator')) return
		const label = event.label ?? 'direct'
		const shape = JSON.stringify(shapeOf(event.request))
		const key = `${label}\u0000${shape}`
		if (seen.has(key)) return
		seen.add(key)
		const request = redacted(event.request) as { _: string }
		const line: RecordedRequest = { label, method: event.request._, shape, request }
		appendFileSync(path, `${JSON.stringify(line)}\n`)
	})
}
