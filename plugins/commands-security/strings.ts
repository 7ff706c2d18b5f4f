import { optionalText, requiredString as required } from 'userbot-gateway/plugin'

/**
 * String fields of this group: passwords, hints, codes and addresses that go to TDLib as they are,
 * each a JSON string of well-formed Unicode; anything else gets a sentence naming the field, never
 * its value.
 */
export { optionalText }

/** A required string: `missing` when absent, null or `""`, as every required field of every group. */
export const requiredString = (field: string, missing: string) => required(field, { missing })
