import type { failedToAddMember, failedToAddMembers } from 'tdlib-types'
import {
	defineCommand,
	fields,
	INTEGER_SCHEMA,
	requiredInt,
	requiredValue,
	toInt,
} from 'userbot-gateway/plugin'
import * as v from 'valibot'
import { ADD_CHUNK, MembersErrors as E, MAX_USER_IDS } from './errors'
import { addFailure } from './partial-result'

const isList = Array.isArray
/**
 * The protocol's strings first (missing, not a list), then ours: every check stands alone, as valibot runs
 * them all.
 */
const userIds = v.pipe(
	requiredValue(E.USER_IDS_REQUIRED, {
		type: 'array',
		items: INTEGER_SCHEMA,
		minItems: 1,
		maxItems: MAX_USER_IDS,
	}),
	v.check(isList, E.USER_IDS_NOT_LIST),
	v.check((x) => !isList(x) || x.length <= MAX_USER_IDS, E.USER_IDS_TOO_MANY),
	v.check(
		(x) => !isList(x) || x.length > MAX_USER_IDS || x.every((i) => toInt(i) !== undefined),
		E.USER_IDS_NOT_INTEGERS,
	),
	v.check((x) => !isList(x) || x.length > 0, E.USER_IDS_EMPTY),
	// Each user once, in the order given.
	v.transform((x) => [...new Set((x as unknown[]).map((i) => toInt(i) as number))]),
)

function chunks(ids: number[], size: number): number[][] {
	const out: number[][] = []
	for (let i = 0; i < ids.length; i += size) out.push(ids.slice(i, i + size))
	return out
}

/**
 * `add_chat_members`: `getChat`, then `addChatMembers` 20 users a call in a supergroup or channel,
 * or one `addChatMember` per user in a basic group (TDLib refuses more at once there), one call after
 * another. The result is the merged `failedToAddMembers`: the users TDLib lists there are not in the
 * chat (their privacy settings), the others are. A failing call stops the command: the error event
 * carries TDLib's message and the partial result (`partial-result.ts`).
 */
export const addChatMembers = defineCommand({
	name: 'add_chat_members',
	policy: { action: 'write' },
	summary: 'Adds up to 100 users, in order.',
	result: {
		description:
			'The merged list of who could not be added; a failure carries `{failed_to_add_members, remaining_user_ids}`.',
		tdlib: 'failedToAddMembers',
	},
	examples: [{ chat_id: -1000000003001, user_ids: [1004, 1005] }],
	flood: 'add_members',
	methods: ['getChat', 'addChatMembers', 'addChatMember', 'createPrivateChat'],
	input: fields({
		chat_id: requiredInt('chat_id', E.CHAT_ID_REQUIRED),
		user_ids: userIds,
	}),
	async run(input, ctx) {
		const chat = await ctx.invoke({ _: 'getChat', chat_id: input.chat_id })
		const basic = chat.type._ === 'chatTypeBasicGroup'
		const calls = basic ? input.user_ids.map((id) => [id]) : chunks(input.user_ids, ADD_CHUNK)
		const failed: failedToAddMember[] = []
		for (const [i, ids] of calls.entries()) {
			try {
				// Past the deadline (or with the socket gone) nothing more is sent.
				if (ctx.signal.aborted) throw ctx.signal.reason
				const answer: failedToAddMembers = basic
					? await ctx.invoke({
							_: 'addChatMember',
							chat_id: input.chat_id,
							user_id: ids[0]!,
							forward_limit: 0,
						})
					: await ctx.invoke({ _: 'addChatMembers', chat_id: input.chat_id, user_ids: ids })
				failed.push(...answer.failed_to_add_members)
			} catch (err) {
				throw addFailure(err, failed, calls.slice(i).flat())
			}
		}
		return { _: 'failedToAddMembers', failed_to_add_members: failed }
	},
})
