import {
	type CommandContext,
	CommandError,
	defineCommand,
	fields,
	TdError,
	wordError,
} from 'userbot-gateway/plugin'
import { SessionsErrors as E } from './errors'
import {
	ALL_PRIVACY_SETTINGS,
	type PrivacySetting,
	privacySettingOf,
	privacySettingsField,
} from './privacy-setting'

const read = (setting: PrivacySetting, ctx: CommandContext) =>
	setting.kind === 'newChat'
		? ctx.invoke({ _: 'getNewChatPrivacySettings' })
		: ctx.invoke({ _: 'getUserPrivacySettingRules', setting: setting.setting })

/** Every setting, when the frame names none. */
const ALL = ALL_PRIVACY_SETTINGS.map((name) => privacySettingOf(name) as PrivacySetting)

/**
 * `get_privacy_settings`: one `getUserPrivacySettingRules` per user setting and
 * `getNewChatPrivacySettings` for `newChatPrivacySettings`, one after another. Result
 * `{<setting name>: <userPrivacySettingRules | newChatPrivacySettings>}`, in the order asked.
 *
 * When TDLib refuses any of them the error is the protocol's `failed to get privacy settings`
 * (docs/protocol.md#error-strings), word for word, and TDLib's messages are not lost: `result` is `{results:
 * {<name>: ...}, errors: {<name>: <message>}}`, what was read and what was refused. A lost runtime or a
 * deadline is the gateway's own answer.
 */
export const getPrivacySettings = defineCommand({
	name: 'get_privacy_settings',
	policy: { action: 'read' },
	summary: 'Reads several privacy settings (every one by default), one at a time.',
	result: {
		description:
			'The settings read, keyed by name; when TDLib refused any, the error carries `{results, errors}`.',
		schema: { type: 'object', additionalProperties: { type: 'object' } },
	},
	errors: [E.FAILED_TO_GET_PRIVACY_SETTINGS],
	examples: [{}, { settings: ['userPrivacySettingShowStatus', 'newChatPrivacySettings'] }],
	methods: ['getUserPrivacySettingRules', 'getNewChatPrivacySettings'],
	input: fields({ settings: privacySettingsField }),
	async run(input, ctx) {
		const results: Record<string, unknown> = {}
		const errors: Record<string, string> = {}
		for (const setting of input.settings ?? ALL) {
			try {
				results[setting.name] = await read(setting, ctx)
			} catch (err) {
				if (!(err instanceof TdError)) throw err
				errors[setting.name] = wordError(err)
			}
		}
		if (Object.keys(errors).length > 0) {
			throw new CommandError(E.FAILED_TO_GET_PRIVACY_SETTINGS, { results, errors })
		}
		return results
	},
})
