import { expect } from 'bun:test'
import type * as Td from 'tdlib-types'
import type { TdRequest } from '../../../src/runtime/telegram/types'
import {
	type ChatUpdate,
	createLoggedInUserbot,
	createMessagingFixture,
	type MessagingFixture,
	type WsClient,
} from '../../helpers-ws'

/** Emulator accounts: Bob is the fixture's userbot; the others are userbots of the same company. */
export const USER = { alice: 1001, bob: 1002, dave: 1004, eve: 1005 } as const

export interface InviteFixture {
	f: MessagingFixture
	c: WsClient
	/** Userbot ids of the other accounts, which act through TDLib (join by link) or their own frames. */
	bots: { alice: number; dave: number; eve: number }
	/** Sends a command as `userbot` (Bob by default) and waits for its reply. */
	run(action: string, fields?: Record<string, unknown>, userbot?: number): Promise<ChatUpdate>
	/** The `result` of a command that must succeed. */
	ok<T = unknown>(action: string, fields?: Record<string, unknown>, userbot?: number): Promise<T>
	/** The `error` of a command that must fail. */
	errorOf(action: string, fields?: Record<string, unknown>, userbot?: number): Promise<string | undefined>
	/** A TDLib request straight to a userbot's client (what the other accounts do). */
	td<M extends TdRequest['_']>(userbot: number, request: TdRequest<M>): Promise<unknown>
	/** A new supergroup (or channel) made by Bob, that nobody else is in. */
	newGroup(title: string, isChannel?: boolean): Promise<number>
	/** Whether `userbot`'s account is in `chatId` (it sees the chat). */
	isMember(userbot: number, chatId: number): Promise<boolean>
	stop(): Promise<void>
}

export async function createInviteFixture(): Promise<InviteFixture> {
	const f = await createMessagingFixture()
	const company = f.alice.companyId
	const bots = {
		alice: await createLoggedInUserbot(f.t, company, '9996611111'),
		dave: await createLoggedInUserbot(f.t, company, '9996614444'),
		eve: await createLoggedInUserbot(f.t, company, '9996625555'),
	}
	const c = await f.connect()
	const runtime = f.t.ctx.runtime!
	const run = (action: string, fields: Record<string, unknown> = {}, userbot = f.userbotId) =>
		c.command({ action, userbot_id: userbot, ...fields })
	const td = <M extends TdRequest['_']>(userbot: number, request: TdRequest<M>) =>
		runtime.invoke(userbot, request) as Promise<unknown>
	return {
		f,
		c,
		bots,
		run,
		async ok<T>(action: string, fields: Record<string, unknown> = {}, userbot = f.userbotId) {
			const reply = await run(action, fields, userbot)
			expect(reply.payload).toMatchObject({ type: action })
			return reply.payload.result as T
		},
		async errorOf(action: string, fields: Record<string, unknown> = {}, userbot = f.userbotId) {
			const reply = await run(action, fields, userbot)
			expect(reply.payload.type).toBe(`${action}_error`)
			return reply.payload.error
		},
		td,
		async newGroup(title, isChannel = false) {
			const chat = (await td(f.userbotId, {
				_: 'createNewSupergroupChat',
				title,
				is_channel: isChannel,
				is_forum: false,
				description: '',
			})) as Td.chat
			return chat.id
		},
		isMember: (userbot, chatId) =>
			td(userbot, { _: 'getChat', chat_id: chatId }).then(
				() => true,
				() => false,
			),
		stop: () => f.stop(),
	}
}
