import type { UserPrivacySetting$Input, userPrivacySettingRules$Input } from 'tdlib-types'
import {
	defineCommand,
	documented,
	fields,
	optionalBool,
	TdObjectError,
	tdObjectSchema,
	tdSlot,
} from 'userbot-gateway/plugin'
import * as v from 'valibot'
import { SessionsErrors as E, MAX_RULE_CHAT_IDS, MAX_RULE_USER_IDS } from './errors'
import { MODES, type Mode, modeRules, optionalIdList, rawRules, ruleCapsError } from './privacy-rules'
import { privacySettingField } from './privacy-setting'

type Change =
	| { kind: 'newChat'; allow: boolean }
	| { kind: 'rules'; setting: UserPrivacySetting$Input; rules: userPrivacySettingRules$Input }

const given = (x: unknown) => x !== undefined && x !== null

/**
 * Every field on its own first; then the variant, in the order of precedence of
 * docs/tdlib-mapping.md#sessions-and-privacy.
 */
const SetPrivacySettingInput = v.pipe(
	fields({
		setting: privacySettingField,
		mode: documented(v.optional(v.unknown()), { enum: [...MODES] }),
		rules: documented(
			v.optional(v.unknown()),
			{
				anyOf: [
					tdObjectSchema(tdSlot('userPrivacySettingRules')),
					{ type: 'array', items: tdObjectSchema(tdSlot('UserPrivacySettingRule')) },
				],
			},
			{ errorsNaming: 'rules' },
		),
		allow_user_ids: optionalIdList('allow_user_ids', MAX_RULE_USER_IDS, E.RULE_USER_IDS_TOO_MANY),
		restrict_user_ids: optionalIdList('restrict_user_ids', MAX_RULE_USER_IDS, E.RULE_USER_IDS_TOO_MANY),
		allow_chat_ids: optionalIdList('allow_chat_ids', MAX_RULE_CHAT_IDS, E.RULE_CHAT_IDS_TOO_MANY),
		restrict_chat_ids: optionalIdList('restrict_chat_ids', MAX_RULE_CHAT_IDS, E.RULE_CHAT_IDS_TOO_MANY),
		allow_premium_users: optionalBool('allow_premium_users'),
		allow_new_chats_from_unknown_users: documented(v.optional(v.unknown()), {
			type: 'boolean',
			description: 'with setting newChatPrivacySettings (then required)',
		}),
	}),
	v.rawTransform(({ dataset, addIssue, NEVER }): Change => {
		const o = dataset.value
		const refuse = (message: string) => {
			addIssue({ message })
			return NEVER
		}
		if (o.setting.kind === 'newChat') {
			const allow = o.allow_new_chats_from_unknown_users
			if (!given(allow)) return refuse(E.ALLOW_NEW_CHATS_REQUIRED)
			if (typeof allow !== 'boolean') return refuse('allow_new_chats_from_unknown_users must be a boolean')
			return { kind: 'newChat', allow }
		}
		let rules: userPrivacySettingRules$Input
		if (given(o.rules)) {
			try {
				rules = rawRules(o.rules)
			} catch (err) {
				if (err instanceof TdObjectError) return refuse(err.message)
				throw err
			}
		} else if (typeof o.mode === 'string' && MODES.includes(o.mode)) {
			rules = modeRules(o.mode as Mode, o)
		} else {
			return refuse(E.MODE)
		}
		const tooMany = ruleCapsError(rules)
		if (tooMany) return refuse(tooMany)
		return { kind: 'rules', setting: o.setting.setting, rules }
	}),
)

/**
 * `set_privacy_setting`, three variants, the first that applies (docs/tdlib-mapping.md#sessions-and-privacy):
 * 1. `setting: "newChatPrivacySettings"` with `allow_new_chats_from_unknown_users`:
 *    `getNewChatPrivacySettings`, then `setNewChatPrivacySettings`. TDLib's call writes both fields,
 *    so the current star count is read and kept when allowing (a price on messages from strangers
 *    needs them allowed; refusing them sets it to 0).
 * 2. `rules` (an object or a list): `setUserPrivacySettingRules` with them, checked against TDLib's
 *    schema.
 * 3. `mode` with its exceptions: `setUserPrivacySettingRules` with the rules `modeRules` builds.
 * The id lists count only in 3. Result `{_: 'ok'}`.
 */
export const setPrivacySetting = defineCommand({
	name: 'set_privacy_setting',
	policy: { action: 'manage', permission: 'privacy.change' },
	summary: 'Sets a privacy setting: by mode and exceptions, by raw rules, or the new-chat setting.',
	result: { description: "TDLib's `ok`.", tdlib: 'ok' },
	errors: [
		E.ALLOW_NEW_CHATS_REQUIRED,
		'allow_new_chats_from_unknown_users must be a boolean',
		E.MODE,
		E.RULES_TOO_MANY,
		E.RULES_TYPE,
		E.RULE_USER_IDS_TOO_MANY,
		E.RULE_CHAT_IDS_TOO_MANY,
	],
	examples: [
		{ setting: 'userPrivacySettingShowStatus', mode: 'contacts', restrict_user_ids: [1004] },
		{ setting: 'newChatPrivacySettings', allow_new_chats_from_unknown_users: false },
	],
	methods: ['setUserPrivacySettingRules', 'getNewChatPrivacySettings', 'setNewChatPrivacySettings'],
	input: SetPrivacySettingInput,
	async run(input, ctx) {
		if (input.kind === 'rules') {
			return ctx.invoke({ _: 'setUserPrivacySettingRules', setting: input.setting, rules: input.rules })
		}
		const current = await ctx.invoke({ _: 'getNewChatPrivacySettings' })
		return ctx.invoke({
			_: 'setNewChatPrivacySettings',
			settings: {
				_: 'newChatPrivacySettings',
				allow_new_chats_from_unknown_users: input.allow,
				incoming_paid_message_star_count: input.allow ? current.incoming_paid_message_star_count : 0,
			},
		})
	},
})
