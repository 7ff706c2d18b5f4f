import { badRequest } from './errors'
import { FIELD_MESSAGES } from './field-messages'

/** What DRF's IntegerField reads at most (its `max_string_length`); longer is no integer to it. */
const MAX_DIGITS = 1000

/**
 * An integer query parameter (`?limit=`, `?before=`) checked as DRF's IntegerField with
 * `min_value`/`max_value` checks it: undefined when absent; a 400 field error when it is no integer
 * (`A valid integer is required.`) or one out of range (`Ensure this value is less than or equal to
 * N.`, `... greater than or equal to N.`), never quoting what was sent. Big integers are compared as
 * such: `?limit=100000000000000000000` is too large, not "no integer".
 */
export function queryInteger(
	query: URLSearchParams,
	name: string,
	range: { min: number; max: number },
): number | undefined {
	const raw = query.get(name)
	if (raw === null) return undefined
	// As DRF reads it: surrounding blanks, a sign, and a `.0` after the digits are allowed.
	if (raw.length > MAX_DIGITS) throw badRequest({ [name]: [FIELD_MESSAGES.tooLarge] })
	const digits = /^\s*([-+]?\d+)(?:\.0*)?\s*$/.exec(raw)?.[1]
	if (!digits) throw badRequest({ [name]: [FIELD_MESSAGES.notInteger] })
	const value = BigInt(digits)
	if (value > BigInt(range.max)) throw badRequest({ [name]: [FIELD_MESSAGES.maxValue(range.max)] })
	if (value < BigInt(range.min)) throw badRequest({ [name]: [FIELD_MESSAGES.minValue(range.min)] })
	return Number(value)
}
