import type * as Td from 'tdlib-types'
import { constructorsOf } from '../../runtime/telegram/schema'
import { fail, type Handlers, OK, type Session } from '../session'
import { blockListHandlers } from './block-lists'

/**
 * Block lists (`block-lists.ts`), privacy setting rules and new-chat privacy of each account, with TDLib's
 * errors (docs/tdlib-mapping.md#sessions-and-privacy; td/telegram/UserPrivacySettingRule.cpp,
 * PrivacyManager.cpp).
 *
 * Rules are kept as TDLib sends them to the server and shown as TDLib reads them back: users the
 * account cannot see and chats that are neither a basic group nor a supergroup it knows are dropped;
 * a trailing `restrictAll` is dropped (no match already means "not allowed"), so "nobody" reads as
 * an empty list.
 */

/** Telegram's defaults: everyone, but contacts only for the phone number and the birthdate. */
const CONTACTS_ONLY = new Set(['userPrivacySettingShowPhoneNumber', 'userPrivacySettingShowBirthdate'])
const defaultRules = (setting: string): Td.UserPrivacySettingRule[] => [
	{
		_: CONTACTS_ONLY.has(setting) ? 'userPrivacySettingRuleAllowContacts' : 'userPrivacySettingRuleAllowAll',
	},
]

interface AccountPrivacy {
	rules: Map<string, Td.UserPrivacySettingRule[]>
	newChat: { allow: boolean; stars: number }
}

const privacyOf = (s: Session): AccountPrivacy => {
	const accounts = s.world.store('privacy', () => new Map<number, AccountPrivacy>())
	let privacy = accounts.get(s.userId)
	if (!privacy) {
		privacy = {
			rules: new Map(constructorsOf('UserPrivacySetting').map((name) => [name, defaultRules(name)])),
			newChat: { allow: true, stars: 0 },
		}
		accounts.set(s.userId, privacy)
	}
	return privacy
}

function settingName(setting: Td.UserPrivacySetting$Input | undefined): string {
	return setting?._ ?? fail('UserPrivacySetting must be non-empty')
}

/** A chat whose members a rule may name: a basic group or a supergroup the account knows. */
const groupChat = (s: Session, chatId: number) => {
	const chat = s.world.chatFor(s.userId, chatId)
	return chat && (chat.kind === 'basicGroup' || chat.kind === 'supergroup')
}

/** One rule as the server keeps it. */
function keptRule(s: Session, rule: Td.UserPrivacySettingRule$Input | null): Td.UserPrivacySettingRule {
	if (!rule) return fail('UserPrivacySettingRule must be non-empty')
	switch (rule._) {
		case 'userPrivacySettingRuleAllowUsers':
		case 'userPrivacySettingRuleRestrictUsers':
			return { _: rule._, user_ids: (rule.user_ids ?? []).filter((id) => s.world.users.has(id)) }
		case 'userPrivacySettingRuleAllowChatMembers':
		case 'userPrivacySettingRuleRestrictChatMembers':
			return { _: rule._, chat_ids: (rule.chat_ids ?? []).filter((id) => groupChat(s, id)) }
		default:
			return { _: rule._ }
	}
}

const copy = (rules: Td.UserPrivacySettingRule[]): Td.UserPrivacySettingRule[] =>
	rules.map((r) =>
		'user_ids' in r
			? { ...r, user_ids: [...r.user_ids] }
			: 'chat_ids' in r
				? { ...r, chat_ids: [...r.chat_ids] }
				: { ...r },
	)

export const privacyHandlers: Handlers = {
	...blockListHandlers,
	getUserPrivacySettingRules(s, req) {
		const rules = privacyOf(s).rules.get(settingName(req.setting)) ?? []
		return { _: 'userPrivacySettingRules', rules: copy(rules) }
	},
	setUserPrivacySettingRules(s, req) {
		const name = settingName(req.setting)
		if (!req.rules) return fail('UserPrivacySettingRules must be non-empty')
		const rules = (req.rules.rules ?? []).map((r) => keptRule(s, r))
		if (rules.at(-1)?._ === 'userPrivacySettingRuleRestrictAll') rules.pop()
		privacyOf(s).rules.set(name, rules)
		return OK
	},
	getNewChatPrivacySettings(s) {
		const { allow, stars } = privacyOf(s).newChat
		return {
			_: 'newChatPrivacySettings',
			allow_new_chats_from_unknown_users: allow,
			incoming_paid_message_star_count: stars,
		}
	},
	setNewChatPrivacySettings(s, req) {
		// Both fields are written: what is left out is its zero value, as TDLib reads it (null settings
		// are TDLib's defaults: new chats allowed, no price).
		const allow = req.settings ? (req.settings.allow_new_chats_from_unknown_users ?? false) : true
		const stars = Math.max(0, req.settings?.incoming_paid_message_star_count ?? 0)
		// A price applies to messages that may come at all: refusing them, it is 0.
		privacyOf(s).newChat = { allow, stars: allow ? stars : 0 }
		return OK
	},
}
