/**
 * What the wire-wording sweep and the frame fuzz (test/reliability/) know of a command's input: the
 * field names its schema declares, and the marks of wording a client must never see.
 */

/** valibot's own sentences and a stack's lines: never in a reply. */
export const LIBRARY_WORDING =
	// TDLib's own "Invalid value of parameter from_message_id specified" (libtdjson holds it) is TDLib's words.
	/Invalid (type|length|value(?! of parameter)|key|format|entries)|Expected |received |at Object\.|\n\s+at /

/** The field names an input schema declares (an object schema, or the one inside a pipe). */
export function fieldsOf(schema: unknown): string[] {
	const s = schema as { entries?: Record<string, unknown>; pipe?: unknown[] }
	if (s.entries) return Object.keys(s.entries)
	for (const item of s.pipe ?? []) {
		const found = fieldsOf(item)
		if (found.length > 0) return found
	}
	return []
}
