import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { SEED_CHATS } from '../../src/emulator'
import type { RequestEvent } from '../../src/runtime/supervisor/types'
import { createMessagingFixture, type MessagingFixture, type WsClient } from '../helpers-ws'
import { hostileFor, LOCAL_BY_NUMBER, type Place } from './hostile-places'
import { CHAT_ADMIN, MEMBERS, SESSIONS } from './hostile-places-groups'
import { MESSAGES } from './hostile-places-messages'

/**
 * Issue 7, item 1: no client object reaches TDLib unchecked. Each hostile object goes, at the top
 * level and nested, into every field of every command group through which a client hands TDLib an
 * object (hostile-places*.ts); every frame must be answered with one of our errors, and not one
 * request may reach the runtime. Each place is checked to be live: the same frame with a well-formed
 * object there does reach TDLib, so a refusal is the object's doing and not another field's.
 */
const GROUPS: Record<string, Record<string, Place>> = {
	messages: MESSAGES,
	'sessions and privacy': SESSIONS,
	members: MEMBERS,
	'chat administration and invites': CHAT_ADMIN,
}

const entity = (type: unknown) => ({ '@type': 'textEntity', offset: 0, length: 1, type })

describe('client objects at every pass-through field', () => {
	let f: MessagingFixture
	let c: WsClient
	const seen: RequestEvent[] = []
	beforeAll(async () => {
		f = await createMessagingFixture()
		f.t.ctx.runtime!.onRequest((event) => seen.push(event))
		c = await f.connect()
	})
	afterAll(() => f.stop())

	const send = (frame: Record<string, unknown>) => c.command({ userbot_id: f.userbotId, ...frame })

	for (const [group, places] of Object.entries(GROUPS)) {
		it(`are refused with our own words before anything reaches TDLib: ${group}`, async () => {
			const outcomes: string[] = []
			const before = seen.length
			let frames = 0
			for (const [name, place] of Object.entries(places)) {
				for (const [kind, hostile] of Object.entries(hostileFor(place))) {
					const frame = place.build(hostile)
					const reply = await send(frame)
					frames++
					const { type, error } = reply.payload
					if (
						type !== `${String(frame.action)}_error` ||
						!error ||
						error.startsWith('Failed to parse JSON')
					) {
						outcomes.push(`${name} / ${kind}: ${JSON.stringify(reply.payload)}`)
					}
				}
			}
			expect(outcomes).toEqual([])
			expect(frames).toBeGreaterThan(Object.keys(places).length * 9)
			expect(seen.slice(before).map((e) => `${e.label}: ${e.request._}`)).toEqual([])
		})
	}

	it('are live places: the same frames with a well-formed object reach TDLib', async () => {
		const dead: string[] = []
		for (const places of Object.values(GROUPS)) {
			for (const [name, place] of Object.entries(places)) {
				const frame = place.build(place.fine)
				const before = seen.length
				const reply = await send(frame)
				const sent = seen.slice(before).filter((e) => e.label === frame.action)
				if (sent.length === 0) dead.push(`${name}: ${JSON.stringify(reply.payload)}`)
			}
		}
		expect(dead).toEqual([])
	})

	it('are dropped, never sent, where the spec skips invalid items (set_reaction beside a valid item)', async () => {
		const thumbsUp = { '@type': 'reactionTypeEmoji', emoji: '👍' }
		const wrong: string[] = []
		for (const [kind, hostile] of Object.entries(hostileFor(MESSAGES['set_reaction reaction list']!))) {
			const before = seen.length
			const reply = await send({
				action: 'set_reaction',
				chat_id: SEED_CHATS.basicGroup,
				message_id: 1048576,
				reaction: [hostile, thumbsUp],
			})
			const sent = seen.slice(before).map((e) => e.request)
			// The gateway refuses a frame this deep before any command looks at it.
			const expected =
				kind === '100 levels deep'
					? []
					: [
							{
								_: 'addMessageReaction',
								chat_id: SEED_CHATS.basicGroup,
								message_id: 1048576,
								reaction_type: { _: 'reactionTypeEmoji', emoji: '👍' },
								is_big: false,
								update_recent_reactions: true,
							},
						]
			if (!Bun.deepEquals(sent, expected)) {
				wrong.push(`${kind}: ${JSON.stringify(sent)} ${JSON.stringify(reply.payload)}`)
			}
		}
		expect(wrong).toEqual([])
	})

	it('say where the object is wrong, and never repeat what was sent', async () => {
		const error = async (frame: Record<string, unknown>) =>
			(await send({ chat_id: SEED_CHATS.basicGroup, ...frame })).payload.error
		expect(await error({ action: 'send_message', text: 'x', reply_to: LOCAL_BY_NUMBER })).toBe(
			'reply_to: @type must be a TDLib type name',
		)
		expect(
			await error({
				action: 'send_message',
				text: 'x',
				entities: [entity({ '@type': 'inputFileLocal', path: '/etc/passwd' })],
			}),
		).toBe('entities[0].type: inputFileLocal is not allowed here')
		// Where a file does go, the one wording of docs/protocol.md#media-in-a-command.
		expect(
			await error({
				action: 'send_message',
				media: {
					'@type': 'inputMessageDocument',
					document: {
						'@type': 'inputDocument',
						document: { '@type': 'inputFileLocal', path: '/etc/passwd' },
					},
				},
			}),
		).toBe('media must be a URL, a remote file id or an uploaded file')
		expect(
			await error({
				action: 'send_message',
				text: 'x',
				options: { '@type': 'messageSendOptions', secret: '/etc/passwd' },
			}),
		).toBe('options: unknown field for messageSendOptions')
		expect(
			await error({
				action: 'send_message',
				text: 'x',
				reply_to: { '@type': 'messageSenderUser', user_id: 1 },
			}),
		).toBe('reply_to: messageSenderUser is not allowed here')
		expect(
			await error({
				action: 'send_message',
				text: 'x',
				entities: [entity({ '@type': 'textEntityTypeTextUrl', url: 5 })],
			}),
		).toBe('entities[0].type.url must be a string')
	})

	it('answer the spec’s one string where it fixes one: block lists and privacy settings', async () => {
		const error = async (frame: Record<string, unknown>) => (await send(frame)).payload.error
		const BLOCK_LIST = 'block_list must be a library block list type'
		for (const block_list of [
			LOCAL_BY_NUMBER,
			'inputFileLocal',
			{ '@type': 'blockListMain', path: '/etc/passwd' },
			{ _: 'blockListMain', '@type': 'blockListStories' },
			'blockListArchive',
		]) {
			expect(await error({ action: 'block_user', user_id: 1001, block_list })).toBe(BLOCK_LIST)
			expect(await error({ action: 'get_blocked_users', block_list })).toBe(BLOCK_LIST)
		}
		const UNSUPPORTED = 'unsupported privacy setting'
		for (const setting of [
			LOCAL_BY_NUMBER,
			'inputFileLocal',
			{ '@type': 'userPrivacySettingShowStatus', path: '/etc/passwd' },
			{ '@type': 'newChatPrivacySettings', allow_new_chats_from_unknown_users: true },
			{ _: 'userPrivacySettingShowStatus', '@type': 'newChatPrivacySettings' },
			'userPrivacySettingShowEverything',
		]) {
			expect(await error({ action: 'get_privacy_setting', setting })).toBe(UNSUPPORTED)
			// The error table words it `failed to get privacy settings` for this command.
			expect(
				await error({ action: 'get_privacy_settings', settings: ['userPrivacySettingShowBio', setting] }),
			).toBe('failed to get privacy settings')
			expect(await error({ action: 'set_privacy_setting', setting, mode: 'nobody' })).toBe(UNSUPPORTED)
		}
		expect(await error({ action: 'get_privacy_settings', settings: LOCAL_BY_NUMBER })).toBe(
			'settings must be a list or string',
		)
		// Where the spec has no one string, the validator says where: a rule's user id, a right.
		expect(
			await error({
				action: 'set_privacy_setting',
				setting: 'userPrivacySettingShowStatus',
				rules: [{ '@type': 'userPrivacySettingRuleAllowUsers', user_ids: [LOCAL_BY_NUMBER] }],
			}),
		).toBe('rules[0].user_ids[0] must be an integer')
		expect(
			await error({
				action: 'add_chat_administrator',
				chat_id: SEED_CHATS.supergroup,
				user_id: 1001,
				rights: { '@type': 'chatPermissions', can_send_basic_messages: true },
			}),
		).toBe('rights: chatPermissions is not allowed here')
		expect(
			await error({
				action: 'get_chat_join_requests',
				chat_id: SEED_CHATS.supergroup,
				invite_link: 'https://t.me/+AAAAAAAAAAAAAAAA',
				offset_request: { user_id: 1001, date: 1, path: '/etc/passwd' },
			}),
		).toBe('offset_request: unknown field for chatJoinRequest')
	})

	it('are let through when well formed, to TDLib in its own form', async () => {
		const reply = await send({
			action: 'send_message',
			chat_id: SEED_CHATS.basicGroup,
			text: { '@type': 'formattedText', text: 'bold', entities: [entity({ '@type': 'textEntityTypeBold' })] },
			options: { '@type': 'messageSendOptions', disable_notification: true },
		})
		expect(reply.payload.type).toBe('send_message')
		const sent = seen.at(-1)!.request as Record<string, unknown>
		expect(sent.options).toEqual({ _: 'messageSendOptions', disable_notification: true })
		expect(sent.input_message_content).toEqual({
			_: 'inputMessageText',
			text: {
				_: 'formattedText',
				text: 'bold',
				entities: [{ _: 'textEntity', offset: 0, length: 1, type: { _: 'textEntityTypeBold' } }],
			},
		})
	})
})
