import type { UserPrivacySettingRule$Input, userPrivacySettingRules$Input } from 'tdlib-types'
import {
	checkTdList,
	checkTdObject,
	documented,
	INTEGER_SCHEMA,
	isObject,
	TdObjectError,
	tdSlot,
	toInt,
} from 'userbot-gateway/plugin'
import * as v from 'valibot'
import { SessionsErrors as E, MAX_RULE_CHAT_IDS, MAX_RULE_USER_IDS, MAX_RULES } from './errors'

type Rule = UserPrivacySettingRule$Input
type Rules = userPrivacySettingRules$Input

/** A client's raw rules, checked against TDLib's schema: the rules object, or any one rule. */
const RULES = tdSlot('userPrivacySettingRules')
const RULE = tdSlot('UserPrivacySettingRule')

/**
 * `rules` (set_privacy_setting's raw variant): a `userPrivacySettingRules` object (its `@type` may be
 * left out, as TDLib allows for a field of one exact type) or a list of rules, each checked against
 * TDLib's schema; the validator's message says which part is wrong. Throws `TdObjectError`.
 */
export function rawRules(value: unknown): Rules {
	if (Array.isArray(value)) {
		if (value.length > MAX_RULES) throw new TdObjectError(E.RULES_TOO_MANY)
		return { _: 'userPrivacySettingRules', rules: checkTdList<Rule>(value, RULE, 'rules') }
	}
	if (!isObject(value)) throw new TdObjectError(E.RULES_TYPE)
	const rules = checkTdObject<Rules>(value, RULES, 'rules')
	if ((rules.rules?.length ?? 0) > MAX_RULES) throw new TdObjectError(E.RULES_TOO_MANY)
	return { _: 'userPrivacySettingRules', rules: rules.rules ?? [] }
}

export type Mode = 'all' | 'contacts' | 'nobody'
export const MODES: readonly string[] = ['all', 'contacts', 'nobody']

export interface Exceptions {
	allow_user_ids?: number[]
	restrict_user_ids?: number[]
	allow_chat_ids?: number[]
	restrict_chat_ids?: number[]
	allow_premium_users?: boolean
}

/**
 * The rules of a mode and its exceptions. TDLib matches rules in order, first match wins, no match is "not
 * allowed", so the exceptions come first, then the mode's own rule
 * (docs/tdlib-mapping.md#sessions-and-privacy):
 * - all: restricted users, restricted chats' members, then everyone;
 * - contacts: restricted users and chats (a user in both an allow and a restrict list stays
 *   restricted), allowed users and chats, Premium users if asked, then contacts;
 * - nobody: allowed users and chats, Premium users if asked, then no one.
 * Lists that cannot change the outcome (allow lists under `all`, restrict lists under `nobody`) are
 * left out, and so are empty ones.
 */
export function modeRules(mode: Mode, x: Exceptions): Rules {
	const rules: Rule[] = []
	const users = (
		_: 'userPrivacySettingRuleAllowUsers' | 'userPrivacySettingRuleRestrictUsers',
		ids?: number[],
	) => {
		if (ids?.length) rules.push({ _, user_ids: ids })
	}
	const chats = (
		_: 'userPrivacySettingRuleAllowChatMembers' | 'userPrivacySettingRuleRestrictChatMembers',
		ids?: number[],
	) => {
		if (ids?.length) rules.push({ _, chat_ids: ids })
	}
	if (mode !== 'nobody') {
		users('userPrivacySettingRuleRestrictUsers', x.restrict_user_ids)
		chats('userPrivacySettingRuleRestrictChatMembers', x.restrict_chat_ids)
	}
	if (mode !== 'all') {
		users('userPrivacySettingRuleAllowUsers', x.allow_user_ids)
		chats('userPrivacySettingRuleAllowChatMembers', x.allow_chat_ids)
		if (x.allow_premium_users) rules.push({ _: 'userPrivacySettingRuleAllowPremiumUsers' })
	}
	rules.push({
		_:
			mode === 'all'
				? 'userPrivacySettingRuleAllowAll'
				: mode === 'contacts'
					? 'userPrivacySettingRuleAllowContacts'
					: 'userPrivacySettingRuleRestrictAll',
	})
	return { _: 'userPrivacySettingRules', rules }
}

/** TDLib's limits on the ids all the rules of one setting name together; the wire string past one. */
export function ruleCapsError(rules: Rules): string | null {
	let users = 0
	let chats = 0
	for (const rule of rules.rules ?? []) {
		if ('user_ids' in rule) users += rule.user_ids?.length ?? 0
		if ('chat_ids' in rule) chats += rule.chat_ids?.length ?? 0
	}
	if (users > MAX_RULE_USER_IDS) return E.RULE_USER_IDS_TOO_MANY
	if (chats > MAX_RULE_CHAT_IDS) return E.RULE_CHAT_IDS_TOO_MANY
	return null
}

/**
 * An optional list of ids (`allow_user_ids`...): at most `max` (past it, `tooMany`, before any item is
 * looked at), each an integer.
 */
export const optionalIdList = (field: string, max: number, tooMany: string) => {
	const notList = `${field} must be a list of integers`
	return v.optional(
		v.pipe(
			documented(
				v.unknown(),
				{ type: 'array', items: INTEGER_SCHEMA, maxItems: max },
				{ errors: [notList, tooMany] },
			),
			v.rawTransform(({ dataset, addIssue, NEVER }) => {
				const value = dataset.value
				if (value === null) return undefined
				if (!Array.isArray(value)) {
					addIssue({ message: notList })
					return NEVER
				}
				if (value.length > max) {
					addIssue({ message: tooMany })
					return NEVER
				}
				const ids = value.map(toInt)
				if (ids.some((id) => id === undefined)) {
					addIssue({ message: notList })
					return NEVER
				}
				return ids as number[]
			}),
		),
	)
}
