import { CHAT_UPDATE, RESYNC, SUBSCRIBE, UPDATE } from '../../common/wire/envelope'
import type { JsonSchema } from '../commands/fields'
import { SUBSCRIBE_ERRORS, subscribeFrameFields } from '../updates/subscribe-frame'
import type { Catalog, CatalogCommand } from './catalog'

/**
 * The command channel as an AsyncAPI 3.0 document, from the catalog: one operation per command (the
 * server receives the frame and replies `<command>` or `<command>_error` on the same channel), and
 * the pushed events (updates, resyncs, authorization states). Payloads are JSON Schema draft-07.
 */

const REQUEST_ID: JsonSchema = {
	type: ['string', 'integer'],
	description: 'echoed in the reply, so concurrent replies can be matched',
}
const USERBOT_ID: JsonSchema = {
	type: ['integer', 'string'],
	pattern: '^[0-9]{1,16}$',
	description: 'the userbot the command acts on (a string of digits is read as one)',
}

const ref = (path: string) => ({ $ref: path })

function frame(c: CatalogCommand): JsonSchema {
	const input = c.input as { properties?: Record<string, JsonSchema>; required?: string[] }
	return {
		type: 'object',
		properties: {
			action: { const: c.name },
			userbot_id: USERBOT_ID,
			request_id: REQUEST_ID,
			...(input.properties ?? {}),
		},
		required: ['action', 'userbot_id', ...(input.required ?? [])],
		additionalProperties: true,
	}
}

/**
 * A reply's envelope. `userbot_id` is always an integer: a success names the userbot it ran for; an
 * error to a frame that named no usable userbot (none, no integer, past 2^53) leaves it out.
 */
function reply(
	type: JsonSchema,
	extra: Record<string, JsonSchema>,
	required: string[],
	userbotIdRequired = true,
): JsonSchema {
	const id = userbotIdRequired ? ['userbot_id'] : []
	return {
		type: 'object',
		properties: {
			type: { const: CHAT_UPDATE },
			userbot_id: { type: 'integer' },
			payload: {
				type: 'object',
				properties: { userbot_id: { type: 'integer' }, type, request_id: REQUEST_ID, ...extra },
				required: [...id, 'type', ...required],
			},
		},
		required: ['type', ...id, 'payload'],
	}
}

function resultSchema(c: CatalogCommand): JsonSchema {
	if (c.result.schema) return c.result.schema
	const types = c.result.tdlib_types
	const description = c.result.description ?? undefined
	if (types) {
		return {
			type: 'object',
			...(description ? { description } : {}),
			properties: { _: { enum: types } },
		}
	}
	return description ? { description } : {}
}

/** The `subscribe` frame (the connection's own, not a command) and its two replies. */
function subscribeOperation(
	channelMessages: Record<string, JsonSchema>,
	messages: Record<string, JsonSchema>,
	operations: Record<string, JsonSchema>,
): void {
	const fields = subscribeFrameFields()
	const names = { frame: SUBSCRIBE, ok: `${SUBSCRIBE}.reply`, error: `${SUBSCRIBE}.error` }
	messages[names.frame] = {
		name: SUBSCRIBE,
		title: SUBSCRIBE,
		summary: "Starts (or replaces) the connection's live updates of a userbot, filtered if asked.",
		payload: {
			type: 'object',
			properties: { userbot_id: USERBOT_ID, request_id: REQUEST_ID, ...fields },
			required: ['action', 'userbot_id'],
			additionalProperties: true,
		},
		examples: [
			{
				payload: {
					action: SUBSCRIBE,
					userbot_id: 1,
					updates: ['updateNewMessage'],
					after: 41,
					filter: { chat_ids: [-1000000003001], outgoing: false, contains: ['invoice'] },
				},
			},
		],
	}
	messages[names.ok] = {
		name: SUBSCRIBE,
		title: `${SUBSCRIBE} (success)`,
		payload: reply(
			{ const: SUBSCRIBE },
			{ result: { type: 'object', properties: { last_seq: { type: 'integer', minimum: 0 } } } },
			['result'],
		),
	}
	messages[names.error] = {
		name: `${SUBSCRIBE}_error`,
		title: `${SUBSCRIBE}_error`,
		summary: 'One of the listed strings.',
		payload: reply(
			{ const: `${SUBSCRIBE}_error` },
			{ error: { type: 'string', examples: [...SUBSCRIBE_ERRORS] } },
			['error'],
			false,
		),
	}
	for (const name of Object.values(names)) channelMessages[name] = ref(`#/components/messages/${name}`)
	operations[SUBSCRIBE] = {
		action: 'receive',
		channel: ref('#/channels/commands'),
		summary: messages[names.frame]?.summary,
		messages: [ref(`#/channels/commands/messages/${names.frame}`)],
		reply: {
			channel: ref('#/channels/commands'),
			messages: [
				ref(`#/channels/commands/messages/${names.ok}`),
				ref(`#/channels/commands/messages/${names.error}`),
			],
		},
	}
}

/** A command's frame, its two replies and its operation. */
function commandOperation(
	c: Catalog['commands'][number],
	channelMessages: Record<string, JsonSchema>,
	messages: Record<string, JsonSchema>,
	operations: Record<string, JsonSchema>,
) {
	const names = { command: c.name, ok: `${c.name}.reply`, error: `${c.name}.error` }
	messages[names.command] = {
		name: c.name,
		title: c.name,
		...(c.summary ? { summary: c.summary } : {}),
		payload: frame(c),
		...(c.examples.length
			? { examples: c.examples.map((e) => ({ payload: { action: c.name, userbot_id: 1, ...e } })) }
			: {}),
	}
	messages[names.ok] = {
		name: c.name,
		title: `${c.name} (success)`,
		...(c.result.description ? { summary: c.result.description } : {}),
		payload: reply({ const: c.name }, { result: resultSchema(c) }, ['result']),
	}
	messages[names.error] = {
		name: `${c.name}_error`,
		title: `${c.name}_error`,
		summary: c.tdlib_errors
			? "One of the listed strings, or TDLib's own message passed through."
			: 'One of the listed strings.',
		payload: reply(
			{ const: `${c.name}_error` },
			{
				error: { type: 'string', examples: c.errors },
				result: { description: 'a partial result, where the command has one' },
			},
			['error'],
			false,
		),
	}
	for (const name of Object.values(names)) channelMessages[name] = ref(`#/components/messages/${name}`)
	operations[c.name] = {
		action: 'receive',
		channel: ref('#/channels/commands'),
		...(c.summary ? { summary: c.summary } : {}),
		tags: [{ name: c.group }],
		messages: [ref(`#/channels/commands/messages/${names.command}`)],
		reply: {
			channel: ref('#/channels/commands'),
			messages: [
				ref(`#/channels/commands/messages/${names.ok}`),
				ref(`#/channels/commands/messages/${names.error}`),
			],
		},
	}
}

/** What the server pushes without being asked: live updates, a resync, an authorization state. */
function pushedMessages(
	channelMessages: Record<string, JsonSchema>,
	messages: Record<string, JsonSchema>,
	operations: Record<string, JsonSchema>,
) {
	messages.update = {
		name: UPDATE,
		summary: "A userbot's live update, after `subscribe`; `seq` numbers them per userbot, from 1.",
		payload: {
			type: 'object',
			properties: {
				type: { const: UPDATE },
				userbot_id: { type: 'integer' },
				seq: { type: 'integer', minimum: 1 },
				update: { type: 'object', description: "TDLib's update object (`_` names its kind)" },
			},
			required: ['type', 'userbot_id', 'seq', 'update'],
		},
	}
	messages.resync = {
		name: RESYNC,
		summary: 'The earliest update the server can still send is `seq`: subscribe again with `after: seq - 1`.',
		payload: {
			type: 'object',
			properties: { type: { const: RESYNC }, userbot_id: { type: 'integer' }, seq: { type: 'integer' } },
			required: ['type', 'userbot_id', 'seq'],
		},
	}
	messages.authorization_state = {
		name: 'authorization_state',
		summary: "A company's userbot changed its log-in state (pushed to the company's connections).",
		payload: reply({ const: 'authorization_state' }, { result: { type: 'object' } }, ['result']),
	}
	for (const name of [UPDATE, RESYNC, 'authorization_state']) {
		channelMessages[name] = ref(`#/components/messages/${name}`)
		operations[`push_${name}`] = {
			action: 'send',
			channel: ref('#/channels/commands'),
			summary: messages[name]?.summary,
			messages: [ref(`#/channels/commands/messages/${name}`)],
		}
	}
}

export function toAsyncApi(catalog: Catalog): JsonSchema {
	const channelMessages: Record<string, JsonSchema> = {}
	const messages: Record<string, JsonSchema> = {}
	const operations: Record<string, JsonSchema> = {}
	for (const c of catalog.commands) commandOperation(c, channelMessages, messages, operations)
	subscribeOperation(channelMessages, messages, operations)
	pushedMessages(channelMessages, messages, operations)
	return {
		asyncapi: '3.0.0',
		info: {
			title: `${catalog.service} command channel`,
			version: catalog.version,
			description:
				'WebSocket commands run in the TDLib client of a Telegram account (a userbot). Authenticate at the upgrade with `Authorization: Bearer <access>` or the session cookie; one reply per command, matched by `request_id`. TDLib ' +
				catalog.tdlib,
		},
		defaultContentType: 'application/json',
		servers: {
			local: {
				host: '127.0.0.1:8000',
				protocol: 'ws',
				description: 'npm start, with its default HOST and PORT',
			},
		},
		channels: { commands: { address: catalog.channel, messages: channelMessages } },
		operations,
		components: { messages },
	}
}
