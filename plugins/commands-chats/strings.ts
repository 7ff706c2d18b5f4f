import { optionalText, requiredString } from 'userbot-gateway/plugin'

/**
 * The group's text fields (search queries, usernames, offsets) go to TDLib as they are: a JSON string
 * of well-formed Unicode; anything else is refused with a sentence naming the field, never its value.
 */
export { optionalText }

/** A required string: `missing` when absent, null or `""`, as every required field of every group. */
export const requiredText = (field: string, missing = `${field} is required`) =>
	requiredString(field, { missing })
