import { defineCommand, fields } from 'userbot-gateway/plugin'
import { privacySettingField } from './privacy-setting'

/**
 * `get_privacy_setting` → `getUserPrivacySettingRules`; TDLib's `userPrivacySettingRules` as it is
 * ("nobody" reads as an empty list: TDLib drops a trailing `restrictAll`). `newChatPrivacySettings`
 * → `getNewChatPrivacySettings`, as docs/tdlib-mapping.md#sessions-and-privacy recommends.
 */
export const getPrivacySetting = defineCommand({
	name: 'get_privacy_setting',
	policy: { action: 'read' },
	summary: 'Reads one privacy setting.',
	result: {
		description: "The setting's rules, or, for newChatPrivacySettings, that object.",
		tdlib: ['userPrivacySettingRules', 'newChatPrivacySettings'],
	},
	examples: [{ setting: 'userPrivacySettingShowStatus' }],
	methods: ['getUserPrivacySettingRules', 'getNewChatPrivacySettings'],
	input: fields({ setting: privacySettingField }),
	run: (input, ctx) =>
		input.setting.kind === 'newChat'
			? ctx.invoke({ _: 'getNewChatPrivacySettings' })
			: ctx.invoke({ _: 'getUserPrivacySettingRules', setting: input.setting.setting }),
})
