import * as v from 'valibot'
import type { CommandDefinition } from '../commands/define'
import { withoutNulls } from '../commands/frame-values'

/**
 * valibot's fallback wording, for a schema that names no message of its own: ours, never valibot's
 * (`Invalid type: Expected string but received 5` would repeat what was sent). Only a field name the
 * schema itself declares is named.
 */
const FIELD_NAME = /^[a-z_][a-z0-9_]{0,63}$/
/** Marks an issue valibot would have worded; the path is only known once the parse is over. */
const UNWORDED = '\u0000unworded'

function wireMessage(issue: v.BaseIssue<unknown>): string {
	if (issue.message !== UNWORDED) return issue.message
	const key = issue.path?.[0]?.key
	return typeof key === 'string' && FIELD_NAME.test(key) ? `${key} is invalid` : 'a field is invalid'
}

/** The command's input as its schema reads the frame (a field at null is a field not sent), or the wire string of the first issue. */
export function parseInput(
	command: Pick<CommandDefinition, 'input'>,
	frame: Record<string, unknown>,
): { ok: true; input: unknown } | { ok: false; error: string } {
	const parsed = v.safeParse(command.input, withoutNulls(frame), { message: UNWORDED })
	return parsed.success
		? { ok: true, input: parsed.output }
		: { ok: false, error: wireMessage(parsed.issues[0]) }
}
