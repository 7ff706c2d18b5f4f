import type { ReactionType$Input } from 'tdlib-types'
import {
	type CommandContext,
	checkTdObject,
	defineCommand,
	documented,
	fields,
	optionalBool,
	requiredInt,
	requiredValue,
	TdObjectError,
	tdObjectSchema,
	tdSlot,
} from 'userbot-gateway/plugin'
import * as v from 'valibot'
import { MessagesErrors as E, MAX_REACTIONS } from './errors'

/**
 * The reactions a user can add with addMessageReaction: an emoji or a custom emoji. Paid reactions
 * need addPendingPaidMessageReaction (docs/tdlib-mapping.md#messages), so they are no valid item here.
 */
const REACTION = tdSlot('ReactionType', { only: ['reactionTypeEmoji', 'reactionTypeCustomEmoji'] })

/** A protocol reaction item as TDLib's `ReactionType`, or null when it is not a valid item. */
function reactionType(item: unknown): ReactionType$Input | null {
	let checked: ReactionType$Input
	try {
		checked = checkTdObject<ReactionType$Input>(item, REACTION, 'reaction')
	} catch (err) {
		if (err instanceof TdObjectError) return null
		throw err
	}
	if (checked._ === 'reactionTypeEmoji') return checked.emoji ? checked : null
	return checked._ === 'reactionTypeCustomEmoji' && checked.custom_emoji_id !== undefined ? checked : null
}

/** `reaction: []`, kept apart from a list whose items were all invalid: with `replace` it removes all. */
const NONE: ReactionType$Input[] = []

const reactions = v.pipe(
	requiredValue(E.REACTION_REQUIRED, {
		anyOf: [
			tdObjectSchema(REACTION),
			{ type: 'array', items: tdObjectSchema(REACTION), maxItems: MAX_REACTIONS },
		],
	}),
	// Counted before filtering: each valid item is one addMessageReaction.
	v.check((x) => !Array.isArray(x) || x.length <= MAX_REACTIONS, E.REACTION_TOO_MANY),
	v.transform((x) =>
		Array.isArray(x) && x.length === 0
			? NONE
			: (Array.isArray(x) ? x : [x]).map(reactionType).filter((r) => r !== null),
	),
	v.check((list) => list.length > 0 || list === NONE, E.NO_VALID_REACTION),
)

const same = (a: ReactionType$Input, b: ReactionType$Input) =>
	a._ === 'reactionTypeEmoji'
		? b._ === 'reactionTypeEmoji' && a.emoji === b.emoji
		: a._ === 'reactionTypeCustomEmoji' &&
			b._ === 'reactionTypeCustomEmoji' &&
			String(a.custom_emoji_id) === String(b.custom_emoji_id)

/** The reactions the account has chosen on the message, as TDLib's message says. */
async function chosen(ctx: CommandContext, chatId: number, messageId: number): Promise<ReactionType$Input[]> {
	const message = await ctx.invoke({ _: 'getMessage', chat_id: chatId, message_id: messageId })
	return (message.interaction_info?.reactions?.reactions ?? [])
		.filter((r) => r.is_chosen)
		.map((r): ReactionType$Input => r.type)
		.filter((t) => t._ === 'reactionTypeEmoji' || t._ === 'reactionTypeCustomEmoji')
}

/**
 * `set_reaction`: one `addMessageReaction` per valid item, in order. Additive, as TDLib's user API is
 * (`setMessageReactions` is for bots only): a user's oldest reaction may drop out past their limit.
 * With `replace`, the account's reactions become these: its chosen ones (`getMessage`) that are not
 * in the list are removed first (`removeMessageReaction`), then the new ones added; `reaction: []`
 * then removes them all. Result `{_: 'ok'}`.
 */
export const setReaction = defineCommand({
	name: 'set_reaction',
	policy: { action: 'write' },
	summary: 'Adds one reaction, or several in order, to a message.',
	result: { description: "TDLib's `ok`.", tdlib: 'ok' },
	examples: [
		{ chat_id: -1000000003001, message_id: 1048576, reaction: { '@type': 'reactionTypeEmoji', emoji: '👍' } },
		{
			chat_id: -1000000003001,
			message_id: 1048576,
			reaction: [{ '@type': 'reactionTypeEmoji', emoji: '🔥' }],
			replace: true,
		},
		{ chat_id: -1000000003001, message_id: 1048576, reaction: [], replace: true },
	],
	methods: ['addMessageReaction', 'getMessage', 'removeMessageReaction', 'createPrivateChat'],
	input: v.pipe(
		fields({
			chat_id: requiredInt('chat_id', E.CHAT_AND_MESSAGE_ID_REQUIRED),
			message_id: requiredInt('message_id', E.CHAT_AND_MESSAGE_ID_REQUIRED),
			reaction: reactions,
			is_big: documented(optionalBool('is_big'), { default: false }),
			add_to_recent: documented(optionalBool('add_to_recent'), { default: true }),
			replace: documented(optionalBool('replace'), {
				default: false,
				description:
					"true: the account's reactions become exactly these (the others removed); with reaction [] none is left",
			}),
		}),
		v.check((o) => o.reaction !== NONE || o.replace === true, E.NO_VALID_REACTION),
	),
	async run(input, ctx) {
		let last: unknown = { _: 'ok' }
		let wanted = input.reaction
		if (input.replace === true) {
			const mine = await chosen(ctx, input.chat_id, input.message_id)
			for (const reaction_type of mine.filter((r) => !wanted.some((w) => same(w, r)))) {
				last = await ctx.invoke({
					_: 'removeMessageReaction',
					chat_id: input.chat_id,
					message_id: input.message_id,
					reaction_type,
				})
			}
			wanted = wanted.filter((w) => !mine.some((r) => same(w, r)))
		}
		for (const reaction_type of wanted) {
			last = await ctx.invoke({
				_: 'addMessageReaction',
				chat_id: input.chat_id,
				message_id: input.message_id,
				reaction_type,
				is_big: input.is_big ?? false,
				// The protocol's add_to_recent is TDLib's update_recent_reactions.
				update_recent_reactions: input.add_to_recent ?? true,
			})
		}
		return last
	},
})
