import type { Server } from 'bun'
import * as v from 'valibot'
import { Refusal } from '../../common/util/refusal'
import { throttled } from '../auth/errors'
import type { GuessLimit } from '../auth/types'
import {
	type Command,
	CommandError,
	type CommandInput,
	defineCommand,
	type InputSchema,
} from '../commands/define'
import type { PeerSource } from '../http/client-address'
import { HttpError } from '../http/errors'
import { BEARER_OR_SESSION, IdParams } from '../http/path-params'
import { type RestRoute, restRoute } from '../http/rest-route'
import type { AnyBody } from '../http/route-eden'
import { schemaJson } from '../http/schema-json'
import { byParam, type PolicyEntry } from '../policy/entry'
import type { Principal } from '../policy/principal'
import type { Operation, OperationCall, RestPart } from './operation'

/**
 * The faces of an operation (./operation.ts): each turns the one definition into what its protocol
 * serves, and translates on the way in and out, deciding nothing itself. The REST route and the
 * WebSocket command of one operation have the same policy entry (the route finds its userbot by
 * `:id`, the command by the frame's `userbot_id`), the same input rules worded for each, the same
 * guess limit for a secret, the same handler, and the same refusals (`Refusal`: its status and
 * `{detail, code}` on REST, its wire string on the command).
 */

/** What the REST face needs of an operation's context: the guess limit, and who the caller is. */
export interface RestFaceContext {
	ctx: {
		auth: {
			guesses: GuessLimit
			clientAddress(server: PeerSource | null | undefined, request: Request): string
		}
	}
}

/** A string id from the path: an unknown one is a 404, as a userbot that does not exist (not a 400). */
function pathId(raw: string | undefined): number {
	if (raw === undefined || !/^\d{1,15}$/.test(raw)) throw new HttpError(404, { detail: 'Not found.' })
	return Number(raw)
}

/** A secret's try: counted first, given back when it was right (the command path does the same). */
async function guessed<T>(guesses: GuessLimit, userbotId: number, step: () => Promise<T>): Promise<T> {
	const wait = await guesses.take(userbotId)
	if (wait > 0) throw throttled(wait)
	const answer = await step()
	await guesses.giveBack(userbotId)
	return answer
}

const asHttp = (err: unknown): unknown =>
	err instanceof Refusal
		? new HttpError(err.status, err.code ? { detail: err.detail, code: err.code } : { detail: err.detail })
		: err

const asWire = (err: unknown): unknown => (err instanceof Refusal ? new CommandError(err.wire) : err)

/** A result's schema as the catalog and AsyncAPI show it: JSON Schema. */
const resultJson = (schema: AnyBody): Record<string, unknown> => schemaJson(schema)

/** An operation's result on the REST face: 200 and its schema, then the refusals the operation says. */
type Answers<Rest> =
	Rest extends RestPart<RouteMethodOf<Rest>, string, infer E> ? { 200: AnyBody } & E : never
type RouteMethodOf<Rest> = Rest extends RestPart<infer M> ? M : never
type PathOf<Rest> = Rest extends RestPart<RouteMethodOf<Rest>, infer P> ? P : never

/**
 * The REST route of an operation with a REST face: a POST, PATCH... on its path, the userbot of `:id`
 * found for the policy, the body (if the operation takes input) validated by the operation's schema in
 * DRF's words, tagged and described from the operation.
 */
export function restFace<
	Ctx extends RestFaceContext,
	N extends string,
	S extends InputSchema,
	R,
	Rest extends RestPart,
>(
	op: Operation<Ctx, N, S, R, Rest>,
	tag: string,
): RestRoute<
	Ctx,
	RouteMethodOf<Rest>,
	PathOf<Rest>,
	S | undefined,
	typeof IdParams,
	Answers<Rest>,
	undefined,
	PolicyEntry
> {
	const { method, path, refusals } = op.rest
	const policy: PolicyEntry = { ...op.policy, resource: 'userbot', find: [byParam()], group: op.group }
	return restRoute({
		method: method as RouteMethodOf<Rest>,
		path: path as PathOf<Rest>,
		policy,
		params: IdParams,
		body: op.input?.('rest'),
		response: { 200: op.result.schema, ...refusals } as Answers<Rest>,
		detail: { operationId: op.id, summary: op.summary, tags: [tag], security: BEARER_OR_SESSION },
		handle: async (ctx: Ctx, input) => {
			const userbotId = pathId(input.params.id)
			const call: OperationCall<v.InferOutput<S>> = {
				input: (input.body ?? {}) as v.InferOutput<S>,
				principal: input.principal as Principal,
				userbotId,
				client: ctx.ctx.auth.clientAddress(input.server as Server<unknown> | null, input.request),
			}
			const run = () => op.run(ctx, call)
			try {
				return await (op.checksSecret ? guessed(ctx.ctx.auth.guesses, userbotId, run) : run())
			} catch (err) {
				throw asHttp(err)
			}
		},
	})
}

/** The input of an operation that takes none, on the command face: any object, its fields ignored. */
const NO_INPUT = v.looseObject({})

/**
 * The WebSocket command of an operation with a command face, for `ctx`: the gateway's command path
 * (docs/protocol.md) checks the frame with the operation's schema in the protocol's words, asks the
 * policy with the same entry, counts a secret's try, and answers the handler's result or refusal.
 */
export function commandFace<
	Ctx,
	const N extends string,
	S extends InputSchema,
	R,
	Rest extends RestPart | undefined,
>(op: Operation<Ctx, N, S, R, Rest>, ctx: Ctx): Command<N, CommandInput<S>, Awaited<R>> {
	const input = (op.input?.('ws') ?? NO_INPUT) as S
	return defineCommand({
		name: op.command.name,
		policy: op.policy,
		...(op.checksSecret ? { checksSecret: true } : {}),
		summary: op.summary,
		result: { description: op.result.description, schema: resultJson(op.result.schema) },
		...(op.errors ? { errors: op.errors } : {}),
		examples: op.examples,
		// Through the operation's own service, which reaches TDLib itself.
		methods: [],
		input,
		...(op.command.requiresAuthorization === false ? { requiresAuthorization: false } : {}),
		run: async (checked: v.InferOutput<S>, c) => {
			try {
				return await op.run(ctx, { input: checked, principal: c.principal, userbotId: c.userbotId })
			} catch (err) {
				throw asWire(err)
			}
		},
	}) as unknown as Command<N, CommandInput<S>, Awaited<R>>
}
