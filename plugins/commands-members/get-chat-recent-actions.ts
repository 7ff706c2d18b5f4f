import type { chatEventLogFilters$Input } from 'tdlib-types'
import {
	CommandError,
	defineCommand,
	documented,
	fields,
	int64String,
	requiredInt,
	tdObjectField,
	tdSlot,
} from 'userbot-gateway/plugin'
import * as v from 'valibot'
import { MembersErrors as E } from './errors'
import { limitField, queryField } from './list-fields'

/**
 * `event_filters`: TDLib 1.8.65's `chatEventLogFilters`, with or without its `@type`. A key it does not
 * know (an older name, a typo) is refused, not dropped: dropping it would widen the answer to events
 * the client meant to leave out.
 */
const EVENT_FILTERS = tdSlot('chatEventLogFilters')

/**
 * `get_chat_recent_actions`: `getChat` (channels and supergroups only), then `getChatEventLog` with
 * query '' and limit 50 by default, every administrator's actions, the newest first. `from_event_id`
 * (an event id, as TDLib writes it: a string) pages back from that event; 0 is the newest. The result
 * is TDLib's `chatEvents`.
 */
export const getChatRecentActions = defineCommand({
	name: 'get_chat_recent_actions',
	policy: { action: 'read' },
	summary: "A channel's or supergroup's event log, newest first.",
	result: { description: "TDLib's chat events.", tdlib: 'chatEvents' },
	errors: [E.RECENT_ACTIONS_CHAT_KIND],
	examples: [{ chat_id: -1000000003001, limit: 20 }],
	methods: ['getChat', 'getChatEventLog', 'createPrivateChat'],
	input: fields({
		chat_id: requiredInt('chat_id', E.CHAT_ID_REQUIRED),
		query: documented(queryField('query'), { default: '' }),
		limit: documented(limitField(), { default: 50 }),
		from_event_id: v.optional(
			v.pipe(
				int64String('from_event_id'),
				v.check((id) => !id.startsWith('-'), 'from_event_id must not be negative'),
			),
		),
		event_filters: tdObjectField<chatEventLogFilters$Input>('event_filters', EVENT_FILTERS),
	}),
	async run(input, ctx) {
		const chat = await ctx.invoke({ _: 'getChat', chat_id: input.chat_id })
		if (chat.type._ !== 'chatTypeSupergroup') throw new CommandError(E.RECENT_ACTIONS_CHAT_KIND)
		return ctx.invoke({
			_: 'getChatEventLog',
			chat_id: input.chat_id,
			query: input.query ?? '',
			from_event_id: input.from_event_id ?? '0',
			limit: input.limit ?? 50,
			filters: input.event_filters,
			user_ids: [],
		})
	},
})
