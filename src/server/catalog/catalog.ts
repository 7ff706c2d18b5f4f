import pkg from '../../../package.json' with { type: 'json' }
import { REASON_EXPIRED, REASON_REVOKED } from '../../common/wire/close'
import { GatewayErrors as G } from '../../common/wire/errors'
import type { CommandDefinition } from '../commands/define'
import type { JsonSchema } from '../commands/fields'
import type { RegisteredCommand } from '../commands/registry'
import { inputErrorFields, inputErrors, inputSchema } from './input-schema'

/**
 * The command catalog: every command the app serves, with its input as JSON Schema, its success
 * result and the error strings it can answer. Built from the registry of the running app (so a
 * plugin's commands are in it), served at `GET /api/commands/`, turned into the AsyncAPI document
 * and the command reference of docs/commands.md.
 */
export interface CatalogCommand {
	name: string
	/** The command group (plugin id) that serves it. */
	group: string
	summary: string | null
	/** False for the log-in steps, which work before the account is logged in. */
	requires_authorization: boolean
	/** The owner-only permission it needs (owners, and members granted it), or null: any member. */
	permission: string | null
	/**
	 * Its policy action (docs/policy.md): `read` changes nothing (what a `read_only` key may send, an
	 * MCP tool's `readOnlyHint`), `write` changes, `manage` changes what only the owner or a grant may.
	 */
	action: 'read' | 'write' | 'manage'
	/** It deletes or ends something for good (an MCP tool's `destructiveHint`). */
	destructive: boolean
	/** Each try counts against the userbot's limit on guessing its password and codes. */
	checks_secret: boolean
	/** The TDLib methods it may send (the gateway refuses any other). */
	tdlib_methods: string[]
	/** The frame's own fields (beside `action`, `userbot_id` and `request_id`). */
	input: JsonSchema
	/** Valid frames' fields. */
	examples: Record<string, unknown>[]
	result: { description: string | null; tdlib_types?: string[]; schema?: JsonSchema }
	/** Every `<command>_error` string of its own and of the gateway, word for word. */
	errors: string[]
	/** Fields whose messages name the path inside them (`reply_to.@type must be ...`): TDLib objects. */
	error_fields: string[]
	/** TDLib's own error messages are passed through as they are (`Chat not found`). */
	tdlib_errors: boolean
}

export interface Catalog {
	service: string
	version: string
	tdlib: string
	/** The WebSocket channel's path. */
	channel: string
	commands: CatalogCommand[]
}

/**
 * The gateway's strings that can answer any command frame (docs/protocol.md#frames-that-are-no-command,
 * docs/protocol.md#websocket-commands).
 */
function gatewayErrors(command: CommandDefinition): string[] {
	return [
		G.USERBOT_ID_REQUIRED,
		G.USERBOT_ID_NOT_INTEGER,
		G.USERBOT_NOT_FOUND,
		...(command.requiresAuthorization === false ? [] : [G.USERBOT_NOT_AUTHORIZED]),
		G.RUNTIME_UNAVAILABLE,
		G.RUNTIME_HELD_ELSEWHERE,
		G.RUNTIME_RESTARTED,
		G.TIMEOUT,
		...(command.methods.length > 0 ? [G.HIDDEN_TDLIB_ERROR] : []),
		...(command.policy.permission ? [G.PERMISSION_DENIED] : []),
		...(command.checksSecret ? [G.TOO_MANY_GUESSES] : []),
		G.TOO_DEEP,
		G.TOO_MANY_IN_FLIGHT,
		REASON_REVOKED,
		REASON_EXPIRED,
		G.INTERNAL,
	]
}

export function catalogEntry({ command, groupId }: RegisteredCommand): CatalogCommand {
	const own = [...inputErrors(command.input), ...(command.errors ?? [])]
	const tdlib = command.result?.tdlib
	return {
		name: command.name,
		group: groupId,
		summary: command.summary ?? null,
		requires_authorization: command.requiresAuthorization !== false,
		permission: command.policy.permission ?? null,
		action: command.policy.action,
		destructive: command.policy.destructive === true,
		checks_secret: command.checksSecret === true,
		tdlib_methods: [...command.methods],
		input: inputSchema(command.input),
		examples: (command.examples ?? []).map((e) => ({ ...e })),
		result: {
			description: command.result?.description ?? null,
			...(tdlib === undefined ? {} : { tdlib_types: typeof tdlib === 'string' ? [tdlib] : [...tdlib] }),
			...(command.result?.schema ? { schema: { ...command.result.schema } } : {}),
		},
		errors: [...new Set([...own, ...gatewayErrors(command)])],
		error_fields: inputErrorFields(command.input),
		tdlib_errors: command.methods.length > 0,
	}
}

/** The catalog of a registry: groups in load order, each group's commands in its own order. */
export function buildCatalog(commands: ReadonlyMap<string, RegisteredCommand>): Catalog {
	const entries = [...commands.values()].map(catalogEntry)
	return { service: pkg.name, version: pkg.version, tdlib: '1.8.65', channel: '/ws', commands: entries }
}
