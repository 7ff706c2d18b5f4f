/**
 * TDLib's `file` objects name where the server keeps a file: `local.path`, an absolute path of the
 * server's disk (`.../data/tdlib/1/uploads/...`, `.../files/documents/...`). A client needs the
 * file's id (the files route serves it by id: docs/read-side.md#files-out), never that path, so
 * every TDLib object that leaves the server (a command's result, a live update, a push, a webhook's
 * event) goes through here and has each `localFile`'s `path` blanked: `''`, as TDLib writes it for
 * a file it has no part of, every other field (`is_downloading_completed`, the sizes) kept
 * (docs/protocol.md#files-and-server-paths). Browser-safe: no import.
 */

/** The TDLib type whose `path` is the server's; its name in JSON, as every such object carries it. */
const LOCAL_FILE = 'localFile'
const MARK = `"${LOCAL_FILE}"`

/**
 * Whether JSON text may hold a server path: false means it holds none (no `localFile` at all), so
 * text already made needs no second look. The check is on the type's name, never on a key's order.
 */
export const mayHoldServerPaths = (text: string): boolean => text.includes(MARK)

/**
 * `value` with every `localFile`'s `path` made `''`, copied only where it changes: the same object
 * when there was none to blank (TDLib's answers are shared with the server's own readers, which need
 * the path, so nothing is changed in place).
 */
export function withoutServerPaths<T>(value: T): T {
	return clean(value) as T
}

function clean(value: unknown): unknown {
	if (typeof value !== 'object' || value === null) return value
	if (Array.isArray(value)) {
		let out: unknown[] | undefined
		for (let i = 0; i < value.length; i++) {
			const item: unknown = value[i]
			const cleaned = clean(item)
			if (cleaned !== item) {
				out ??= value.slice()
				out[i] = cleaned
			}
		}
		return out ?? value
	}
	const record = value as Record<string, unknown>
	if (record._ === LOCAL_FILE) return record.path === '' ? record : { ...record, path: '' }
	let out: Record<string, unknown> | undefined
	for (const key of Object.keys(record)) {
		const item = record[key]
		const cleaned = clean(item)
		if (cleaned !== item) {
			out ??= { ...record }
			out[key] = cleaned
		}
	}
	return out ?? value
}

/** `value` as JSON without server paths: stringified once when it holds none, the common case. */
export function serverPathFreeJson(value: unknown): string {
	const text = JSON.stringify(value)
	return mayHoldServerPaths(text) ? JSON.stringify(withoutServerPaths(value)) : text
}
