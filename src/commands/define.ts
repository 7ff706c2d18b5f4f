import type * as v from 'valibot'
import type { Principal } from '../auth/types'
import type { TdInvoke, TdMethod } from '../telegram/types'

/**
 * A command is data: its wire name, a valibot schema for the frame's fields (beyond `action`,
 * `userbot_id` and `request_id`), and `run`, which turns the checked input into TDLib request(s)
 * and returns the success `result`. `run` executes in the HTTP process; every TDLib request goes
 * through `ctx.invoke`, which crosses IPC to the supervisor that owns the userbot.
 */
export interface CommandContext {
	userbotId: number
	principal: Principal
	invoke: TdInvoke
	/** Aborted when the command's deadline passes or the connection closes. */
	signal: AbortSignal
	/** Resolves a media reference to an uploaded file of this userbot (contract §6), or null. */
	uploadedFilePath(fileRef: string): Promise<string | null>
}

// biome-ignore lint/suspicious/noExplicitAny: a schema of any input and output, as valibot's own GenericSchema
export type InputSchema = v.BaseSchema<unknown, any, v.BaseIssue<unknown>>

export interface CommandDefinition<S extends InputSchema = InputSchema> {
	/** The exact wire name (`send_message`). */
	name: string
	/** Checks the frame; the first issue's message is the `<command>_error` string (ws-commands §7). */
	input: S
	/**
	 * Every TDLib method `run` may send through `ctx.invoke` (tdlib-mapping's index). The gateway
	 * refuses any other, so the list is always true: the conformance report checks that the tests made
	 * each one go out, and the command catalog shows it. Commands that reach TDLib another way (the
	 * log-in steps, through the userbot service) list none.
	 */
	methods: readonly TdMethod[]
	/**
	 * False for commands that work before the userbot is logged in to Telegram (the log-in steps of
	 * the userbots plugin). Default true: the gateway answers `userbot is not authorized` first.
	 */
	requiresAuthorization?: boolean
	run(input: v.InferOutput<S>, ctx: CommandContext): Promise<unknown>
}

export interface CommandGroup {
	id: string
	commands: readonly CommandDefinition[]
}

/**
 * A failure the service itself reports (ws-commands §7), as opposed to one TDLib reported.
 * `result` carries a partial result beside the error (add_chat_member(s), forward_message).
 */
export class CommandError extends Error {
	override name = 'CommandError'
	constructor(
		message: string,
		readonly result?: unknown,
	) {
		super(message)
	}
}

export function defineCommand<S extends InputSchema>(def: CommandDefinition<S>): CommandDefinition {
	return def as unknown as CommandDefinition
}

export function defineCommandGroup(group: CommandGroup): CommandGroup {
	return group
}
