import type { Server } from 'bun'
import { Elysia } from 'elysia'
import type * as v from 'valibot'
import { StartupError } from '../../common/util/startup-error'
import { entryFault, type PolicyEntry } from '../policy/entry'
import type { Principal } from '../policy/principal'
import { readJsonObject } from './body'
import { validateBody } from './body-schema'
import { badRequest } from './errors'
import type { AnyBody, DescribedRoutes } from './route-eden'
import { schemasFault } from './route-schemas'

/**
 * A REST route as one definition (docs/plugins.md#routes-as-data): path, method, body schema,
 * answers, summary, tags, policy entry and handler. `serveRoutes` turns a plugin's definitions
 * into the Elysia routes it serves; `describeRoutes` into its route data (its `api`), which the
 * OpenAPI document and the typed client read. Access is the policy's (docs/policy.md): the route's
 * guard asks `can` before the body is read, and again for the userbots the checked body names. The
 * body is read by `jsonObject` (DRF's answers for a body that is no JSON object) and validated once
 * by the route's valibot schema before the handler, a failure worded as DRF's field errors from the
 * schema's own messages (src/server/http/body-schema.ts). Bodies, parameters and answers are valibot
 * only (issue 44): a schema of another language (TypeBox's) stops the start with a line naming the route.
 */

/** The handler of a route that is data only: the real route is the plugin's `build`. */
export const documentedOnly = (): never => {
	throw new Error('route data is documentation, never served')
}

export type RouteMethod = 'get' | 'post' | 'put' | 'patch' | 'delete'

export interface RouteDetail {
	/** The operation's id in the OpenAPI document and the typed client: a verb and a noun, `getMe`. */
	operationId: string
	summary: string
	tags: string[]
	security?: Array<Record<string, string[]>>
	description?: string
}

/** What the handler gets: the valibot body's output (its stored form). */
type BodyOf<B> = B extends v.GenericSchema ? v.InferOutput<B> : undefined

/** The request as the guard and `before` see it: the body is not read yet. */
export interface RouteRequest {
	request: Request
	server: Server<unknown> | null
	params: Record<string, string>
}

/** The principal a route's handler acts for: none on a public route, which identifies nobody. */
export type PrincipalOf<E> = E extends { resource: 'public' } ? undefined : Principal

/**
 * What a handler gets: the checked body (account fields in their stored form), the path's raw
 * parameters, the principal the guard admitted, and `before`'s result.
 */
export interface RouteInput<B, Pre, E = PolicyEntry> {
	body: BodyOf<B>
	params: Record<string, string>
	request: Request
	server: Server<unknown> | null
	principal: PrincipalOf<E>
	pre: Pre
}

/**
 * Where a route's policy entry is enforced (src/server/auth/route-guard.ts, `ctx.auth.guard(locators)`):
 * `admit` before the body is read (the caller, the resources the path names), `admitBody` once it is
 * checked (the userbots it names). Each throws the refusal's `HttpError`.
 */
export interface RouteGuard {
	/** Why this guard cannot enforce the entry (a kind it cannot find), or null: asked when routes are built. */
	covers(entry: PolicyEntry): string | null
	admit(entry: PolicyEntry, request: RouteRequest): Principal | undefined | Promise<Principal | undefined>
	admitBody(entry: PolicyEntry, principal: Principal | undefined, body: unknown): Promise<void>
}

export interface RestRoute<
	Ctx = unknown,
	M extends RouteMethod = RouteMethod,
	P extends string = string,
	B extends AnyBody | undefined = AnyBody | undefined,
	Params extends AnyBody | undefined = AnyBody | undefined,
	R extends Record<number, AnyBody> = Record<number, AnyBody>,
	Pre = unknown,
	E extends PolicyEntry = PolicyEntry,
	Q extends AnyBody | undefined = AnyBody | undefined,
> {
	method: M
	path: P
	/** What it needs (docs/policy.md): the action, the resource and how the request names it. */
	policy: E
	/** The body's schema: validates it, and is the document's request body. */
	body?: B
	/** The path's parameters as the document shows them (handlers parse them: an unknown id is a 404, not a 400). */
	params?: Params
	/** The query's parameters as the document shows them (the handler reads them: `queryInteger`'s words). */
	query?: Q
	response: R
	detail: RouteDetail
	/**
	 * What runs after the guard admitted the caller and before the body is even read (a rate limit),
	 * when the route answers its refusal first: the order docs/rest.md gives the route. Its result is
	 * the handler's `pre`.
	 */
	before?(ctx: Ctx, request: RouteRequest & { principal: PrincipalOf<E> }): Promise<Pre>
	/**
	 * `false` when the handler words its own answer from the schema's errors (`fieldOutcomes`), as
	 * check-password/ does: the body is read but not refused by the hook.
	 */
	validate?: false
	/**
	 * `true` when the handler reads the request itself (a multipart upload): the body is neither
	 * parsed nor validated, the handler's `body` is `undefined`, and `body` only documents it.
	 */
	readsRequest?: true
	// Methods, not function properties: a list of routes of different bodies and `before` results is one type.
	handle(ctx: Ctx, input: RouteInput<B, Pre, E>): unknown
}

/** A route definition, its types inferred: the identity, for a plugin's list of routes. */
export const restRoute = <
	Ctx,
	const M extends RouteMethod,
	const P extends string,
	B extends AnyBody | undefined = undefined,
	Params extends AnyBody | undefined = undefined,
	// Not `const`: a const type parameter turns the spread statuses (`...ROUTE_ERRORS.authed`) into
	// string keys, and Eden's error `status` would be typed "401" instead of 401.
	R extends Record<number, AnyBody> = Record<number, AnyBody>,
	Pre = undefined,
	const E extends PolicyEntry = PolicyEntry,
	Q extends AnyBody | undefined = undefined,
>(
	route: RestRoute<Ctx, M, P, B, Params, R, Pre, E, Q>,
): RestRoute<Ctx, M, P, B, Params, R, Pre, E, Q> => route

/** Any route of a plugin's list, whatever its body, answers and `before` result. */
type AnyRoute<Ctx = never> = RestRoute<
	Ctx,
	RouteMethod,
	string,
	AnyBody | undefined,
	AnyBody | undefined,
	Record<number, AnyBody>,
	unknown,
	PolicyEntry,
	AnyBody | undefined
>

/** Elysia's custom body parser: the body as a JSON object, answered as DRF does when it is not one. */
const jsonObject = (request: Request) => readJsonObject(request)

type Served = RouteRequest & { body: unknown }
/** What the guard and `before` gave a request, kept from the parse step to the handler. */
type Admitted = { principal: Principal | undefined; pre: unknown }

/** One route as it is served: its definition, its context and guard, the body schema it checks. */
interface Serving<Ctx> {
	ctx: Ctx
	route: AnyRoute<Ctx>
	guard: RouteGuard
	/** A valibot body schema: checked once, before the handler, its output the handler's body. */
	parsed: v.GenericSchema | undefined
	/** What the guard and `before` answered for a request, between the parse step and the handler. */
	admitted: WeakMap<Request, Admitted | Promise<Admitted>>
}

/**
 * The served routes of a plugin's definitions, on its context, each behind `guard`. A route whose
 * entry is broken, or names a kind the guard cannot find, or whose schemas are not valibot's, stops
 * the start with a line naming it.
 */
export function serveRoutes<Ctx>(ctx: Ctx, routes: readonly AnyRoute<Ctx>[], guard: RouteGuard): Elysia {
	const app = new Elysia()
	for (const route of routes) {
		const fault = entryFault(route.policy) ?? guard.covers(route.policy)
		if (fault)
			throw new StartupError(`route ${route.method.toUpperCase()} ${route.path} ${fault} (docs/policy.md)`)
		const language = schemasFault(route)
		if (language) throw new StartupError(`route ${route.method.toUpperCase()} ${route.path} ${language}`)
		const validated = route.body !== undefined && route.readsRequest !== true && route.validate !== false
		const serving: Serving<Ctx> = {
			ctx,
			route,
			guard,
			parsed: validated ? route.body : undefined,
			admitted: new WeakMap(),
		}
		app.route(
			route.method.toUpperCase(),
			route.path,
			servedHandler(serving) as never,
			{
				...hooksOf(serving),
				// Where the start-up check and the policy table read it (src/server/plugin/route-owners.ts).
				policy: route.policy,
			} as never,
		)
	}
	return app
}

/** The guard, then `before`: once per request, whichever hook asks first. */
function admit<Ctx>({ ctx, route, guard, admitted }: Serving<Ctx>, request: RouteRequest) {
	const known = admitted.get(request.request)
	if (known) return known
	const principal = guard.admit(route.policy, request)
	const before = route.before
	const withPre = (p: Principal | undefined): Admitted | Promise<Admitted> =>
		before
			? before.call(route, ctx, { ...request, principal: p as never }).then((pre) => ({ principal: p, pre }))
			: { principal: p, pre: undefined }
	const made = principal instanceof Promise ? principal.then(withPre) : withPre(principal)
	admitted.set(request.request, made)
	return made
}

/** The handler: the admitted caller, the userbots the body names, then the route's own handler. */
function servedHandler<Ctx>(serving: Serving<Ctx>) {
	const { ctx, route, guard, parsed } = serving
	const namesInBody = route.policy.find?.some((f) => f.from === 'body') === true
	const run = ({ body, params, request, server }: Served, a: Admitted) => {
		const input = { body, params, request, server }
		if (parsed) {
			const outcome = validateBody(parsed, body)
			if (!outcome.ok) throw badRequest(outcome.errors)
			input.body = outcome.output
		}
		const handle = () => route.handle(ctx, { ...input, principal: a.principal, pre: a.pre } as never)
		return namesInBody ? guard.admitBody(route.policy, a.principal, input.body).then(handle) : handle()
	}
	// Not async: a route admitted from memory (me/) answers without a promise. The context is taken
	// apart in the parameter list: Elysia reads a handler's source to learn what it uses, and one
	// passed whole to a function makes it parse every header, cookie and query of every request.
	return ({ body, params, request, server }: Served) => {
		const c = { body, params, request, server }
		const a = admit(serving, c)
		return a instanceof Promise ? a.then((x) => run(c, x)) : run(c, a)
	}
}

/** The body's hooks: the guard before the body is parsed, and DRF's empty body (the schema checks in the handler). */
function hooksOf<Ctx>(serving: Serving<Ctx>) {
	const { route } = serving
	// A route that reads the request itself is served as one without a body: nothing parses it.
	if (route.body === undefined || route.readsRequest === true) return { parse: 'none' as const }
	return {
		// Each hook names what it reads (see servedHandler).
		parse: [
			async ({ params, request, server }: Served) => {
				await admit(serving, { params, request, server })
				return jsonObject(request)
			},
		],
		// No body at all (no stream to parse) is DRF's empty `request.data`.
		transform: [
			async (c: Served) => {
				await admit(serving, { params: c.params, request: c.request, server: c.server })
				c.body ??= {}
			},
		],
	}
}

/** The route data of a plugin's definitions (its `api`): what the document says of each, never served. */
export function describeRoutes<const Routes extends readonly AnyRoute[]>(
	name: string,
	routes: Routes,
): DescribedRoutes<Routes> {
	const app = new Elysia({ name })
	for (const route of routes) {
		app.route(route.method.toUpperCase(), route.path, documentedOnly, {
			...(route.body ? { body: route.body } : {}),
			...(route.params ? { params: route.params } : {}),
			...(route.query ? { query: route.query } : {}),
			response: route.response,
			detail: route.detail,
		} as never)
	}
	return app as unknown as DescribedRoutes<Routes>
}
