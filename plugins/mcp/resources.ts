import { and, eq, inArray, isNull } from 'drizzle-orm'
import {
	type AppContext,
	companyOf,
	mayRun,
	type Principal,
	reachedUserbots,
	userbot,
} from 'userbot-gateway/plugin'

/**
 * The resources (docs/mcp.md#resources): a userbot's chat list and a chat's recent history, read
 * through the read commands (`get_chats`, `get_chat_history`) with `ctx.runCommand`, so each read
 * asks the policy for that command and that userbot as a tool call would.
 */

export const CHATS_COMMAND = 'get_chats'
export const HISTORY_COMMAND = 'get_chat_history'
/** How much one read gives: the commands' own upper bounds. */
const CHATS_LIMIT = 100
const HISTORY_LIMIT = 100
const JSON_TYPE = 'application/json'

export const chatsUri = (userbotId: number) => `telegram://userbots/${userbotId}/chats`
export const messagesUri = (userbotId: number, chatId: number | string) =>
	`${chatsUri(userbotId)}/${chatId}/messages`

export const RESOURCE_TEMPLATES = [
	{
		uriTemplate: 'telegram://userbots/{userbot_id}/chats',
		name: 'chats',
		title: "A userbot's chat list",
		description: `The userbot's main chat list, the first ${CHATS_LIMIT} chats (get_chats). Subscribed, updated when a message arrives in any of them.`,
		mimeType: JSON_TYPE,
	},
	{
		uriTemplate: 'telegram://userbots/{userbot_id}/chats/{chat_id}/messages',
		name: 'messages',
		title: "A chat's recent history",
		description: `The chat's last ${HISTORY_LIMIT} messages, newest first (get_chat_history). Subscribed, updated when a new message arrives in it.`,
		mimeType: JSON_TYPE,
	},
]

/** What a resource URI names: a userbot's chats, or one chat's messages. */
export type Named = { userbotId: number; chatId?: number | string }

const URI = /^telegram:\/\/userbots\/([1-9][0-9]{0,14})\/chats(?:\/(-?[1-9][0-9]{0,19})\/messages)?$/

export function parseUri(uri: string): Named | null {
	const m = URI.exec(uri)
	if (!m) return null
	const userbotId = Number(m[1])
	if (m[2] === undefined) return { userbotId }
	const chat = Number(m[2])
	return { userbotId, chatId: Number.isSafeInteger(chat) ? chat : (m[2] as string) }
}

/** A resource's one read, or the command's error (our string, or TDLib's). */
export async function readResource(
	ctx: AppContext,
	principal: Principal,
	uri: string,
	named: Named,
	signal?: AbortSignal,
): Promise<
	{ ok: true; contents: { uri: string; mimeType: string; text: string }[] } | { ok: false; error: string }
> {
	const answer =
		named.chatId === undefined
			? await ctx.runCommand(principal, named.userbotId, CHATS_COMMAND, { limit: CHATS_LIMIT }, signal)
			: await ctx.runCommand(
					principal,
					named.userbotId,
					HISTORY_COMMAND,
					{ chat_id: named.chatId, limit: HISTORY_LIMIT },
					signal,
				)
	if (!answer.ok) return { ok: false, error: answer.error }
	return { ok: true, contents: [{ uri, mimeType: JSON_TYPE, text: JSON.stringify(answer.result) }] }
}

/**
 * The chat list of each live userbot the principal reaches, where it may read chats at all; each
 * chat's history is found from its template.
 */
export async function listResources(ctx: AppContext, principal: Principal) {
	const chats = ctx.servedCommands().find((c) => c.catalog.name === CHATS_COMMAND)
	if (!chats || !mayRun(principal, chats.policy)) return []
	const reached = reachedUserbots(principal)
	const rows = await ctx.db
		.select({ id: userbot.id, name: userbot.name })
		.from(userbot)
		.where(
			and(
				eq(userbot.companyId, companyOf(principal)),
				isNull(userbot.deletedAt),
				...(reached === null ? [] : [inArray(userbot.id, [...reached])]),
			),
		)
		.orderBy(userbot.id)
	return rows.map((row) => ({
		uri: chatsUri(row.id),
		name: `userbot ${row.id} chats`,
		title: `The chats of ${row.name}`,
		mimeType: JSON_TYPE,
	}))
}
