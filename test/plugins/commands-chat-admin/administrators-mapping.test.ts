import { describe, expect, it } from 'bun:test'
import * as v from 'valibot'
import { administratorCommands } from '../../../plugins/commands-chat-admin/administrators'
import { type Answer, stubContext } from '../../helpers-stub'

/**
 * The exact TDLib requests of the administrator commands
 * (docs/tdlib-mapping.md#chat-administration-and-invites), against a recording stub.
 */

const chatOf =
	(type: Record<string, unknown>, more: Answer = () => ({ _: 'ok' })): Answer =>
	(req) =>
		req._ === 'getChat' ? { _: 'chat', id: req.chat_id, type } : more(req)

const SUPERGROUP = { _: 'chatTypeSupergroup', supergroup_id: 77, is_channel: false }
const SECRET = { _: 'chatTypeSecret', secret_chat_id: 4, user_id: 9 }
const sender = { _: 'messageSenderUser', user_id: 9 }

async function runCommand(name: string, frame: Record<string, unknown>, answer: Answer) {
	const command = administratorCommands.find((c) => c.name === name)!
	const { ctx, requests } = stubContext(answer)
	try {
		return { result: await command.run(v.parse(command.input, frame), ctx), requests, error: undefined }
	} catch (error) {
		return { result: undefined, requests, error: error as Error }
	}
}

describe('administrator commands mapping onto TDLib 1.8.65', () => {
	it('add_chat_administrator: least-privilege rights, can_be_edited true, then the tag', async () => {
		const { requests } = await runCommand(
			'add_chat_administrator',
			{ chat_id: -100, user_id: 9, custom_title: '' },
			chatOf(SUPERGROUP),
		)
		expect(requests).toEqual([
			{ _: 'getChat', chat_id: -100 },
			{
				_: 'setChatMemberStatus',
				chat_id: -100,
				member_id: sender,
				status: {
					_: 'chatMemberStatusAdministrator',
					can_be_edited: true,
					rights: { _: 'chatAdministratorRights', can_manage_chat: true, is_anonymous: false },
				},
			},
			// An empty title clears the tag: it is sent, not skipped.
			{ _: 'setChatMemberTag', chat_id: -100, user_id: 9, tag: '' },
		])
	})

	it('add_chat_administrator: the client’s rights as checked, is_anonymous from the top level', async () => {
		const { requests } = await runCommand(
			'add_chat_administrator',
			{
				chat_id: -100,
				user_id: 9,
				rights: { can_restrict_members: true, is_anonymous: true },
				can_be_edited: false,
			},
			chatOf(SUPERGROUP),
		)
		expect(requests[1]).toMatchObject({
			status: {
				can_be_edited: false,
				rights: { _: 'chatAdministratorRights', can_restrict_members: true, is_anonymous: true },
			},
		})
		expect(requests).toHaveLength(2)
	})

	it('refuses private and secret chats before any change', async () => {
		for (const [name, message] of [
			['add_chat_administrator', 'Adding administrators is supported only for channels/groups'],
			['remove_chat_administrator', 'Removing administrators is supported only for channels/groups'],
		] as const) {
			const { requests, error } = await runCommand(name, { chat_id: 9, user_id: 9 }, chatOf(SECRET))
			expect(error?.message).toBe(message)
			expect(requests.map((r) => r._)).toEqual(['getChat'])
		}
	})

	it('remove_chat_administrator: getChatMember first, Member only for an administrator', async () => {
		const status = (s: Record<string, unknown>) =>
			chatOf(SUPERGROUP, (req) =>
				req._ === 'getChatMember' ? { _: 'chatMember', member_id: sender, status: s } : { _: 'ok' },
			)
		const admin = await runCommand(
			'remove_chat_administrator',
			{ chat_id: -100, user_id: 9 },
			status({ _: 'chatMemberStatusAdministrator' }),
		)
		expect(admin.requests.slice(1)).toEqual([
			{ _: 'getChatMember', chat_id: -100, member_id: sender },
			{ _: 'setChatMemberStatus', chat_id: -100, member_id: sender, status: { _: 'chatMemberStatusMember' } },
		])
		for (const s of ['chatMemberStatusLeft', 'chatMemberStatusBanned', 'chatMemberStatusRestricted']) {
			const other = await runCommand(
				'remove_chat_administrator',
				{ chat_id: -100, user_id: 9 },
				status({ _: s }),
			)
			expect(other.error?.message).toBe('user is not an administrator of the chat')
			expect(other.requests.map((r) => r._)).toEqual(['getChat', 'getChatMember'])
		}
	})

	it('transfer_chat_ownership: one request with the password', async () => {
		const { requests } = await runCommand(
			'transfer_chat_ownership',
			{ chat_id: -100, user_id: 9, password: 'pw' },
			() => ({ _: 'ok' }),
		)
		expect(requests).toEqual([{ _: 'transferChatOwnership', chat_id: -100, user_id: 9, password: 'pw' }])
	})
})
