import type { UserPrivacySetting$Input } from 'tdlib-types'
import {
	checkTdObject,
	documented,
	isMissing,
	isObject,
	type JsonSchema,
	TdObjectError,
	tdSlot,
	typeOf,
} from 'userbot-gateway/plugin'
import * as v from 'valibot'
import { SessionsErrors as E, MAX_SETTINGS } from './errors'

/** TDLib's user privacy settings: the constructors of its class `UserPrivacySetting` (14 in 1.8.65). */
const USER_SETTING = tdSlot('UserPrivacySetting')
export const USER_PRIVACY_SETTINGS: readonly string[] = [...USER_SETTING.allowed]

/** Not a `UserPrivacySetting`: who may start a chat, read and written by methods of its own. */
export const NEW_CHAT = 'newChatPrivacySettings'

/** Every setting the protocol reads: `get_privacy_settings`'s default set, in TDLib's order. */
export const ALL_PRIVACY_SETTINGS: readonly string[] = [...USER_PRIVACY_SETTINGS, NEW_CHAT]

/** What the catalog says of a setting: a name, or an object whose `@type` (or `_`) is one. */
const SETTING_SCHEMA: JsonSchema = {
	anyOf: [
		{ type: 'string', enum: ALL_PRIVACY_SETTINGS },
		{
			type: 'object',
			properties: { '@type': { enum: ALL_PRIVACY_SETTINGS }, _: { enum: ALL_PRIVACY_SETTINGS } },
			anyOf: [{ required: ['@type'] }, { required: ['_'] }],
		},
	],
	description: 'a TDLib user privacy setting, or newChatPrivacySettings, by name or as an object',
}

export type PrivacySetting =
	| { kind: 'user'; name: string; setting: UserPrivacySetting$Input }
	| { kind: 'newChat'; name: typeof NEW_CHAT }

/**
 * A setting as the protocol names it: a type name (`"userPrivacySettingShowStatus"`) or an object
 * with `@type` (or `_`), checked against TDLib's schema; null when it is none of TDLib's settings.
 * `newChatPrivacySettings` is named, never given: an object of that type carrying fields is refused.
 */
export function privacySettingOf(value: unknown): PrivacySetting | null {
	const name = typeof value === 'string' ? value : typeOf(value)
	if (name === NEW_CHAT) {
		// Its name only, and both keys, when both are given, say it.
		const bare =
			typeof value === 'string' ||
			(isObject(value) &&
				Object.entries(value).every(([k, x]) => (k === '_' || k === '@type') && x === NEW_CHAT))
		return bare ? { kind: 'newChat', name: NEW_CHAT } : null
	}
	try {
		const setting = checkTdObject<UserPrivacySetting$Input>(value, USER_SETTING, 'setting', { strings: true })
		return { kind: 'user', name: setting._, setting }
	} catch (err) {
		if (err instanceof TdObjectError) return null
		throw err
	}
}

/** `setting`: required, one of TDLib's settings (`unsupported privacy setting` otherwise). */
export const privacySettingField = documented(
	v.pipe(
		v.optional(v.unknown(), null),
		v.check((x) => !isMissing(x), E.SETTING_REQUIRED),
		v.rawTransform(({ dataset, addIssue, NEVER }) => {
			const setting = privacySettingOf(dataset.value)
			if (setting) return setting
			addIssue({ message: E.UNSUPPORTED_PRIVACY_SETTING })
			return NEVER
		}),
	),
	SETTING_SCHEMA,
	{ required: true, errors: [E.UNSUPPORTED_PRIVACY_SETTING] },
)

/**
 * `settings`: a list of settings or one; each read once, in the order first named. Left out or null,
 * every setting (`ALL_PRIVACY_SETTINGS`). A setting that is none of TDLib's cannot be retrieved: The
 * protocol's error table (docs/protocol.md#error-strings) words that `failed to get privacy settings` for
 * this command, whose table row has no `unsupported privacy setting` (that string is get_privacy_setting's
 * and set_privacy_setting's).
 */
export const privacySettingsField = v.optional(
	v.pipe(
		documented(
			v.unknown(),
			{
				anyOf: [SETTING_SCHEMA, { type: 'array', items: SETTING_SCHEMA, maxItems: MAX_SETTINGS }],
				description: 'settings to read, in order; left out, every one',
			},
			{ errors: [E.SETTINGS_TYPE, E.SETTINGS_TOO_MANY, E.FAILED_TO_GET_PRIVACY_SETTINGS] },
		),
		v.rawTransform(({ dataset, addIssue, NEVER }) => {
			const value = dataset.value
			if (value === null) return undefined
			if (typeof value !== 'string' && !Array.isArray(value)) {
				addIssue({ message: E.SETTINGS_TYPE })
				return NEVER
			}
			const list: unknown[] = Array.isArray(value) ? value : [value]
			if (list.length > MAX_SETTINGS) {
				addIssue({ message: E.SETTINGS_TOO_MANY })
				return NEVER
			}
			const settings = new Map<string, PrivacySetting>()
			for (const item of list) {
				const setting = privacySettingOf(item)
				if (!setting) {
					addIssue({ message: E.FAILED_TO_GET_PRIVACY_SETTINGS })
					return NEVER
				}
				if (!settings.has(setting.name)) settings.set(setting.name, setting)
			}
			return [...settings.values()]
		}),
	),
)
