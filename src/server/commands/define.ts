import type * as v from 'valibot'
import type { FloodClass } from '../../runtime/flood/limits'
import type { TdInvoke, TdMethod, TdUpdate } from '../../runtime/telegram/types'
import type { AuditAction, AuditDetail } from '../audit/log'
import type { Principal } from '../auth/types'
import type { CommandPolicy } from '../policy/entry'

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
	/**
	 * Resolves a media reference to an uploaded file of this userbot (docs/protocol.md#media-in-a-command), or
	 * null.
	 */
	uploadedFilePath(fileRef: string): Promise<string | null>
	/**
	 * Calls `fn` with each TDLib update of this userbot, of the kinds the command declares in
	 * `updates`, from now until the returned function is called or the command ends.
	 */
	onUpdate(fn: (update: TdUpdate) => void): () => void
}

// biome-ignore lint/suspicious/noExplicitAny: a schema of any input and output, as valibot's own GenericSchema
export type InputSchema = v.BaseSchema<unknown, any, v.BaseIssue<unknown>>

/** What the command catalog says of a command's success `result`. */
export interface ResultDoc {
	/** One sentence: what comes back. */
	description: string
	/** TDLib's type name(s) when the result is TDLib's object as it is (`message`, `ok`, `chatMembers`). */
	tdlib?: string | readonly string[]
	/** A JSON Schema of the result, for results the service assembles itself (echoes, merged lists). */
	schema?: Readonly<Record<string, unknown>>
}

export interface CommandDefinition<S extends InputSchema = InputSchema> {
	/** The exact wire name (`send_message`). */
	name: string
	/**
	 * Checks the frame; the first issue's message is the `<command>_error` string
	 * (docs/protocol.md#error-strings).
	 */
	input: S
	/**
	 * Every TDLib method `run` may send through `ctx.invoke` (tdlib-mapping's index). The gateway
	 * refuses any other, so the list is always true: the conformance report checks that the tests made
	 * each one go out, and the command catalog shows it. Commands that reach TDLib another way (the
	 * log-in steps, through the userbot service) list none.
	 */
	methods: readonly TdMethod[]
	/**
	 * TDLib update kinds `run` waits for through `ctx.onUpdate` (`updateMessageSendSucceeded`): the
	 * supervisor forwards them whatever `UPDATE_KINDS` says, so that no wait misses its update.
	 */
	updates?: readonly TdUpdate['_'][]
	/**
	 * A command that waits for something to happen (wait_for_message, send_and_wait): the frame's field
	 * that says for how many seconds, and how many when it is absent. The gateway gives the command that
	 * long beyond the ordinary allowance (`COMMAND_TIMEOUT`), at most MAX_WAIT_SECONDS, so that its own
	 * answer (`timed out`) comes before the gateway's `timeout`; the field's schema checks its range.
	 */
	waits?: { field: string; default: number }
	/**
	 * False for commands that work before the userbot is logged in to Telegram (the log-in steps of
	 * the userbots plugin). Default true: the gateway answers `userbot is not authorized` first.
	 */
	requiresAuthorization?: boolean
	/**
	 * What the command needs (docs/policy.md): its action (`read` changes nothing, and is all a
	 * `read_only` key may send; `write`; `manage` with the owner-only `permission` a member must be
	 * granted, src/server/policy/permissions.ts) and whether it is `destructive`. It acts on the userbot its
	 * frame names, in its group; the gateway asks `can` before it runs, and answers `userbot not
	 * found` or `permission denied`.
	 */
	policy: CommandPolicy
	/**
	 * True for a command that checks a password or code the client supplies (a 2FA password, a
	 * recovery or log-in code): the gateway counts each try against the userbot's guess limit before
	 * it runs, and gives a right one back.
	 */
	checksSecret?: boolean
	/**
	 * A command that changes the account (its 2FA, sessions, chats it owns): on success the gateway
	 * writes one line of the company's audit log (docs/operator.md#audit-log) before the reply, with
	 * `action`, the userbot as target and what `detail` takes of the input (ids, never a secret).
	 */
	audit?: { action: AuditAction; detail?(input: v.InferOutput<S>): AuditDetail }
	/**
	 * What the command does to Telegram, for the flood governor (docs/flood-and-health.md): its
	 * requests of that class's methods (`sendMessage` for `send`, not a `getChat` on the way) wait for
	 * the account's budget. `by_method`: each request waits for the budget of its method's class,
	 * whatever it is (td_invoke, which may send any). Left out, nothing of it is paced.
	 */
	flood?: FloodClass | 'by_method'
	/** One line for the command catalog (`GET /api/commands/`, docs/commands.md). */
	summary?: string
	/** The success result, for the catalog. */
	result?: ResultDoc
	/**
	 * Wire strings `run` may answer beyond those of `input` (which the catalog reads from the schema
	 * itself) and the gateway's own: the `CommandError`s it throws.
	 */
	errors?: readonly string[]
	/** Valid frames' fields (without `action` and `userbot_id`): the catalog shows them, tests run them through `input`. */
	examples?: readonly Readonly<Record<string, unknown>>[]
	run(input: v.InferOutput<S>, ctx: CommandContext): Promise<unknown>
}

/** The fields of the last object schema (with any) in a pipe: a pipe may check the frame before them. */
type EntriesIn<P> = P extends readonly [...infer Rest, infer Last]
	? Last extends { readonly entries: infer E extends v.ObjectEntries }
		? [keyof E] extends [never]
			? EntriesIn<Rest>
			: E
		: EntriesIn<Rest>
	: never

type EntriesOf<S> = S extends { readonly pipe: infer P extends readonly unknown[] }
	? EntriesIn<P>
	: S extends { readonly entries: infer E extends v.ObjectEntries }
		? E
		: never

/**
 * The input a client sends, as types: the schema's checked fields by their output types (a loose
 * object's index signature dropped, so a misspelt field fails to compile in a typed client).
 */
export type CommandInput<S> = [EntriesOf<S>] extends [never]
	? S extends InputSchema
		? v.InferOutput<S>
		: never
	: v.InferOutput<v.ObjectSchema<EntriesOf<S>, undefined>>

/**
 * A command that keeps its wire name, input and result as types (for `userbot-gateway/client`).
 * `~types` exists only for the type checker.
 */
export type Command<N extends string = string, I = unknown, R = unknown> = CommandDefinition & {
	readonly name: N
	readonly '~types'?: { readonly input: I; readonly result: R }
}

export interface CommandGroup<C extends readonly CommandDefinition[] = readonly CommandDefinition[]> {
	id: string
	commands: C
}

/**
 * A failure the service itself reports (docs/protocol.md#error-strings), as opposed to one TDLib reported.
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

export function defineCommand<
	const N extends string,
	S extends InputSchema,
	F extends (input: v.InferOutput<S>, ctx: CommandContext) => Promise<unknown>,
>(
	def: Omit<CommandDefinition<S>, 'run'> & { name: N; run: F },
): Command<N, CommandInput<S>, Awaited<ReturnType<F>>> {
	return def as unknown as Command<N, CommandInput<S>, Awaited<ReturnType<F>>>
}

export function defineCommandGroup<const C extends readonly CommandDefinition[]>(
	group: CommandGroup<C>,
): CommandGroup<C> {
	return group
}

/** Wire name → `{input, result}` of every command in `C` (a union of typed commands). */
export type CommandMapOf<C> = {
	[K in C as K extends Command<infer N> ? (string extends N ? never : N) : never]: K extends {
		readonly '~types'?: { readonly input: infer I; readonly result: infer R }
	}
		? { input: I; result: R }
		: never
}
