import type { ChatType, chatAdministratorRights$Input } from 'tdlib-types'
import { tdSlot } from 'userbot-gateway/plugin'

/** `rights`: TDLib 1.8.65's `chatAdministratorRights`, with or without its `@type`; unknown keys refused. */
export const ADMIN_RIGHTS = tdSlot('chatAdministratorRights')

type Right = Exclude<keyof chatAdministratorRights$Input, '_'>

/**
 * Least privilege when the client names no rights (docs/tdlib-mapping.md#chat-administration-and-invites).
 */
export const DEFAULT_RIGHTS: chatAdministratorRights$Input = {
	_: 'chatAdministratorRights',
	can_manage_chat: true,
}

/**
 * Rights TDLib clears before sending, because the chat kind has no use for them
 * (docs/tdlib-mapping.md#chat-administration-and-invites).
 */
const UNFIT: Record<'channel' | 'supergroup', readonly Right[]> = {
	channel: ['can_pin_messages', 'can_manage_topics', 'can_manage_tags', 'is_anonymous'],
	supergroup: ['can_post_messages', 'can_edit_messages', 'can_manage_direct_messages'],
}

/**
 * Whether TDLib would still find a right in `rights` for this chat. When none is left, TDLib turns the
 * promotion into `chatMemberStatusMember`: a demotion, or an add of a user who is not in the chat.
 */
export function grantsAny(rights: chatAdministratorRights$Input, type: ChatType): boolean {
	const unfit: readonly string[] =
		type._ === 'chatTypeSupergroup' ? UNFIT[type.is_channel ? 'channel' : 'supergroup'] : []
	return Object.entries(rights).some(([key, value]) => key !== '_' && value === true && !unfit.includes(key))
}
