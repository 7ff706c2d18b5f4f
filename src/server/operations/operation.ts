import type * as v from 'valibot'
import type { InputSchema } from '../commands/define'
import type { RouteMethod } from '../http/rest-route'
import type { AnyBody } from '../http/route-eden'
import type { CommandPolicy } from '../policy/entry'
import type { Principal } from '../policy/principal'

/**
 * An operation, then its faces (docs/plugins.md#operations): what one thing the gateway does is, said
 * once as data, its input schema, its policy entry, its errors, examples and result, and its handler.
 * Faces translate and decide nothing: the REST route (`restFace`) and the WebSocket command
 * (`commandFace`) of ./faces.ts, later the Bot API method and the MCP tool. An operation acts on one
 * userbot of the caller's company: the REST face finds it by the path's `:id`, the command by the
 * frame's `userbot_id`, and the one policy decides for both from `policy` (docs/policy.md).
 */

/** Who reads the input: the fields' errors are worded for the face (DRF's words, or the protocol's). */
export type Face = 'rest' | 'ws'

/** What the handler gets, whichever face the call came through. */
export interface OperationCall<I> {
	input: I
	principal: Principal
	userbotId: number
	/** The caller's address, for the audit log (the REST face knows it; a command's socket does not say). */
	client?: string
}

/** The REST face's route: its method and path (with `:id`), its refusals' statuses and their bodies. */
export interface RestPart<
	M extends RouteMethod = RouteMethod,
	P extends string = string,
	E extends Record<number, AnyBody> = Record<number, AnyBody>,
> {
	method: M
	path: P
	refusals: E
}

export interface Operation<
	Ctx = unknown,
	N extends string = string,
	S extends InputSchema = InputSchema,
	R = unknown,
	Rest extends RestPart | undefined = RestPart | undefined,
> {
	/** The operation's id: the REST face's `operationId`, a verb and a noun (`submitUserbotCode`). */
	id: string
	/** One line, for the OpenAPI document and the command catalog alike. */
	summary: string
	/**
	 * What it needs (docs/policy.md), on the one userbot it acts on: `read`, `write`, or `manage` with
	 * the owner-only permission a member must be granted; `destructive` when it cannot be had back.
	 */
	policy: CommandPolicy
	/**
	 * The command group it belongs to: an API key's `groups` scope names it on both faces (the command
	 * gets it from its group's id, which must be the same).
	 */
	group: string
	/** The input, worded for the face; absent, the operation takes none (the REST face reads no body). */
	input?: (face: Face) => S
	/** It checks a secret the caller typed (a code, a password): each try counts against the userbot's guess limit. */
	checksSecret?: true
	/** The refusals `run` may answer beyond its input's, as the command's wire strings. */
	errors?: readonly string[]
	/** Valid inputs: the catalog shows them, the tests run them through `input`. */
	examples: readonly Readonly<Record<string, unknown>>[]
	/** The success result: one schema for the document's answer and the catalog's result. */
	result: { description: string; schema: AnyBody }
	/** The REST face, if it has one. */
	rest: Rest
	/** The WebSocket face's command (every operation has one): its wire name; `requiresAuthorization: false` for those that work in any log-in state. */
	command: { name: N; requiresAuthorization?: false }
	run(ctx: Ctx, call: OperationCall<v.InferOutput<S>>): Promise<R>
}

/** An operation, its types kept (the command's name, the input's, the result's): the identity. */
export const defineOperation = <
	Ctx,
	const N extends string,
	S extends InputSchema,
	R,
	const Rest extends RestPart | undefined = undefined,
>(
	op: Operation<Ctx, N, S, R, Rest>,
): Operation<Ctx, N, S, R, Rest> => op
