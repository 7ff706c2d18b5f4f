import type { ChatMembersFilter$Input, SupergroupMembersFilter$Input } from 'tdlib-types'
import { CommandError, tdSlot } from 'userbot-gateway/plugin'

/** `member_filter`: any TDLib 1.8.65 `SupergroupMembersFilter`, as a type name or an object. */
export const MEMBER_FILTER = tdSlot('SupergroupMembersFilter')

export const QUERY_WITHOUT_FIELD = "query can't be used with this member_filter"

/**
 * The filter for `getSupergroupMembers` (docs/tdlib-mapping.md#members): a filter type that searches gets the
 * command's `query` (else its own, else ''); no filter but a query is `supergroupMembersFilterSearch`;
 * neither is no filter (TDLib reads null as Recent). A query beside a filter that cannot search
 * (Recent, Administrators, Bots) is refused rather than silently dropped.
 */
export function supergroupFilter(
	filter: SupergroupMembersFilter$Input | undefined,
	query: string | undefined,
): SupergroupMembersFilter$Input | undefined {
	if (!filter) return query ? { _: 'supergroupMembersFilterSearch', query } : undefined
	switch (filter._) {
		case 'supergroupMembersFilterRecent':
		case 'supergroupMembersFilterAdministrators':
		case 'supergroupMembersFilterBots':
			if (query) throw new CommandError(QUERY_WITHOUT_FIELD)
			return filter
		default:
			return { ...filter, query: query ?? filter.query ?? '' }
	}
}

/**
 * The same filter for `searchChatMembers`, which applies it to a basic group's or private chat's own
 * member list (TDLib does it locally, from the chat's full info): its `ChatMembersFilter` twin and
 * the query to search by.
 */
export function chatMembersSearch(filter: SupergroupMembersFilter$Input | undefined): {
	filter?: ChatMembersFilter$Input
	query: string
} {
	const query = filter && 'query' in filter ? (filter.query ?? '') : ''
	switch (filter?._) {
		case undefined:
		case 'supergroupMembersFilterSearch':
			return { query }
		case 'supergroupMembersFilterRecent':
			return { filter: { _: 'chatMembersFilterMembers' }, query }
		case 'supergroupMembersFilterContacts':
			return { filter: { _: 'chatMembersFilterContacts' }, query }
		case 'supergroupMembersFilterAdministrators':
			return { filter: { _: 'chatMembersFilterAdministrators' }, query }
		case 'supergroupMembersFilterRestricted':
			return { filter: { _: 'chatMembersFilterRestricted' }, query }
		case 'supergroupMembersFilterBanned':
			return { filter: { _: 'chatMembersFilterBanned' }, query }
		case 'supergroupMembersFilterMention':
			return { filter: { _: 'chatMembersFilterMention', topic_id: filter.topic_id }, query }
		case 'supergroupMembersFilterBots':
			return { filter: { _: 'chatMembersFilterBots' }, query }
	}
}
