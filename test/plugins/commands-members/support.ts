import { expect } from 'bun:test'
import type * as Td from 'tdlib-types'
import type { TdMethod, TdRequest, TdResult } from '../../../src/runtime/telegram/types'
import {
	type ChatUpdate,
	createLoggedInUserbot,
	type MessagingFixture,
	type WsClient,
} from '../../helpers-ws'

/** Seed accounts (src/emulator/seed/index.ts). Eve's privacy settings let nobody add her to groups. */
export const U = { alice: 1001, bob: 1002, carol: 1003, dave: 1004, eve: 1005 } as const

export const user = (user_id: number): Td.messageSenderUser => ({ _: 'messageSenderUser', user_id })

export const memberIds = (result: unknown) =>
	(result as Td.chatMembers).members.map((m) =>
		m.member_id._ === 'messageSenderUser' ? m.member_id.user_id : 0,
	)

/** Commands over one WebSocket, as the fixture's userbot (Bob) or another of the company's. */
export interface Members {
	f: MessagingFixture
	c: WsClient
	/** Logged-in userbots of the same company: Alice (1001) and Dave (1004). */
	aliceBot: number
	daveBot: number
	run(action: string, fields?: Record<string, unknown>, userbot?: number): Promise<ChatUpdate>
	/** The `<action>_error` string (and checks that the reply is one). */
	errorOf(action: string, fields?: Record<string, unknown>, userbot?: number): Promise<string | undefined>
	/** A TDLib request straight to a userbot's client (Bob's by default), for set-up and checks. */
	td<M extends TdMethod>(request: TdRequest<M>, userbot?: number): Promise<TdResult<M>>
	/** `userId`'s status in `chat_id`, as Bob sees it. */
	statusOf(chat_id: number, userId: number): Promise<Td.ChatMemberStatus['_']>
	/** A fresh supergroup (or channel) owned by Bob, with `members` added. */
	supergroup(members?: number[], isChannel?: boolean): Promise<{ chatId: number; supergroupId: number }>
	/** A fresh basic group owned by Bob, with `members` added. */
	basicGroup(members: number[]): Promise<number>
	/** A text message from `userbot` in `chat_id`. */
	say(userbot: number, chat_id: number, text: string): Promise<void>
}

export async function membersSession(f: MessagingFixture): Promise<Members> {
	const c = await f.connect()
	const aliceBot = await createLoggedInUserbot(f.t, f.alice.companyId, '9996611111')
	const daveBot = await createLoggedInUserbot(f.t, f.alice.companyId, '9996614444')
	const runtime = f.t.ctx.runtime!
	const td = <M extends TdMethod>(request: TdRequest<M>, userbot = f.userbotId) =>
		runtime.invoke(userbot, request) as Promise<TdResult<M>>
	const run = (action: string, fields: Record<string, unknown> = {}, userbot = f.userbotId) =>
		c.command({ action, userbot_id: userbot, ...fields })
	return {
		f,
		c,
		aliceBot,
		daveBot,
		run,
		td,
		async errorOf(action, fields, userbot) {
			const reply = await run(action, fields, userbot)
			expect(reply.payload.type).toBe(`${action}_error`)
			return reply.payload.error
		},
		async statusOf(chat_id, userId) {
			return (await td({ _: 'getChatMember', chat_id, member_id: user(userId) })).status._
		},
		async supergroup(members = [], isChannel = false) {
			const chat = await td({ _: 'createNewSupergroupChat', title: 'Test group', is_channel: isChannel })
			if (members.length) await td({ _: 'addChatMembers', chat_id: chat.id, user_ids: members })
			const supergroupId = chat.type._ === 'chatTypeSupergroup' ? chat.type.supergroup_id : 0
			return { chatId: chat.id, supergroupId }
		},
		async basicGroup(members) {
			return (await td({ _: 'createNewBasicGroupChat', user_ids: members, title: 'Test basic group' }))
				.chat_id
		},
		async say(userbot, chat_id, text) {
			await td(
				{
					_: 'sendMessage',
					chat_id,
					input_message_content: { _: 'inputMessageText', text: { _: 'formattedText', text } },
				},
				userbot,
			)
		},
	}
}
