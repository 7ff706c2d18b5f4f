import { CloneType, type Static, type TSchema } from '@sinclair/typebox'
import type { Server } from 'bun'
import { type CreateEden, Elysia, type ResolvePath } from 'elysia'
import { documentedOnly } from '../openapi/route-data'
import { readJsonObject } from './body'
import { normalizeFields } from './field-schema'

/**
 * A REST route as one definition (docs/plugins.md#routes-as-data): path, method, body schema,
 * answers, summary, tags, auth requirement and handler. `serveRoutes` turns a plugin's definitions
 * into the Elysia routes it serves; `describeRoutes` into its route data (its `api`), which the
 * OpenAPI document and the typed client read. The body is read by `jsonObject` (DRF's answers for a
 * body that is no JSON object) and validated by Elysia against the route's schema; the app's one
 * error handler words a failure as DRF's field errors (src/http/field-schema.ts).
 */

export type RouteMethod = 'get' | 'post' | 'put' | 'patch' | 'delete'

export interface RouteDetail {
	summary: string
	tags: string[]
	security?: Array<Record<string, string[]>>
	description?: string
}

type BodyOf<B> = B extends TSchema ? Static<B> : undefined

/** The request as `before` sees it: the body is not read yet. */
export interface RouteRequest {
	request: Request
	server: Server<unknown> | null
	params: Record<string, string>
}

/** What a handler gets: the checked body (account fields in their stored form), the path's raw parameters, and `before`'s result. */
export interface RouteInput<B, Pre> {
	body: BodyOf<B>
	params: Record<string, string>
	request: Request
	server: Server<unknown> | null
	pre: Pre
}

export interface RestRoute<
	Ctx = unknown,
	M extends RouteMethod = RouteMethod,
	P extends string = string,
	B extends TSchema | undefined = TSchema | undefined,
	Params extends TSchema | undefined = TSchema | undefined,
	R extends Record<number, TSchema> = Record<number, TSchema>,
	Pre = unknown,
> {
	method: M
	path: P
	/** The body's schema: validates it, and is the document's request body. */
	body?: B
	/** The path's parameters as the document shows them (handlers parse them: an unknown id is a 404, not a 400). */
	params?: Params
	response: R
	detail: RouteDetail
	/**
	 * What runs before the body is even read (authentication, a rate limit), when the route answers
	 * its refusal first: the order docs/rest.md gives the route. Its result is the handler's `pre`.
	 */
	before?(ctx: Ctx, request: RouteRequest): Promise<Pre>
	/**
	 * `false` when the handler words its own answer from the schema's errors (`fieldErrors`), as
	 * check-password/ does: the body is read but not refused by the hook.
	 */
	validate?: false
	/**
	 * `true` when the handler reads the request itself (a multipart upload): the body is neither
	 * parsed nor validated, the handler's `body` is `undefined`, and `body` only documents it.
	 */
	readsRequest?: true
	// Methods, not function properties: a list of routes of different bodies and `before` results is one type.
	handle(ctx: Ctx, input: RouteInput<B, Pre>): unknown
}

/** A route definition, its types inferred: the identity, for a plugin's list of routes. */
export const restRoute = <
	Ctx,
	const M extends RouteMethod,
	const P extends string,
	B extends TSchema | undefined = undefined,
	Params extends TSchema | undefined = undefined,
	// Not `const`: a const type parameter turns the spread statuses (`...ROUTE_ERRORS.authed`) into
	// string keys, and Eden's error `status` would be typed "401" instead of 401.
	R extends Record<number, TSchema> = Record<number, TSchema>,
	Pre = undefined,
>(
	route: RestRoute<Ctx, M, P, B, Params, R, Pre>,
): RestRoute<Ctx, M, P, B, Params, R, Pre> => route

/** Any route of a plugin's list, whatever its body, answers and `before` result. */
type AnyRoute<Ctx = never> = RestRoute<
	Ctx,
	RouteMethod,
	string,
	TSchema | undefined,
	TSchema | undefined,
	Record<number, TSchema>,
	unknown
>

/** Elysia's custom body parser: the body as a JSON object, answered as DRF does when it is not one. */
const jsonObject = (request: Request) => readJsonObject(request)

type Served = RouteRequest & { body: unknown }

/** The served routes of a plugin's definitions, on its context. */
export function serveRoutes<Ctx>(ctx: Ctx, routes: readonly AnyRoute<Ctx>[]): Elysia {
	const app = new Elysia()
	for (const route of routes) {
		// What `before` answered for a request, between the parse step and the handler.
		const early = new WeakMap<Request, unknown>()
		const before = route.before
		// A route that reads the request itself is served as one without a body: nothing parses it.
		const hasBody = route.body !== undefined && route.readsRequest !== true
		// A copy: Elysia's validator writes into the schema it is given (`additionalProperties`), and
		// the definition is also what the document shows, in every app of the process.
		const checked = hasBody && route.validate !== false && route.body ? CloneType(route.body) : undefined
		const handler = before
			? async ({ body, params, request, server }: Served) => {
					const pre = early.has(request) ? early.get(request) : await before(ctx, { request, server, params })
					const input = checked ? normalizeFields(checked, body) : body
					return route.handle(ctx, { body: input, params, request, server, pre } as never)
				}
			: // Not async: a route whose handler answers without a promise (me/) keeps doing so.
				({ body, params, request, server }: Served) =>
					route.handle(ctx, {
						body: checked ? normalizeFields(checked, body) : body,
						params,
						request,
						server,
						pre: undefined,
					} as never)
		// A list of routes of different schemas is one type here: Elysia's handler type, which depends
		// on the route's schema, is the typed view `describeRoutes` gives (the Eden types), not this loop's.
		app.route(
			route.method.toUpperCase(),
			route.path,
			handler as never,
			{
				...(checked ? { body: checked } : {}),
				...(hasBody
					? {
							parse: [
								async ({ request, server, params }: Served) => {
									if (before) early.set(request, await before(ctx, { request, server, params }))
									return jsonObject(request)
								},
							],
							// No body at all (no stream to parse) is DRF's empty `request.data`.
							transform: [
								async (c: Served) => {
									if (before && !early.has(c.request)) early.set(c.request, await before(ctx, c))
									c.body ??= {}
								},
							],
						}
					: { parse: 'none' as const }),
			} as never,
		)
	}
	return app
}

type ResponsesOf<R> = { [S in keyof R]: R[S] extends TSchema ? Static<R[S]> : never }
type EdenOf<R> = R extends {
	method: infer M extends string
	path: infer P extends string
	response: infer Res
}
	? CreateEden<
			P,
			{
				[K in M]: {
					body: R extends { body?: infer B extends TSchema } ? Static<B> : unknown
					params: R extends { params?: infer Params extends TSchema } ? Static<Params> : ResolvePath<P>
					query: unknown
					headers: unknown
					response: ResponsesOf<Res>
				}
			}
		>
	: never
type Intersect<U> = (U extends unknown ? (k: U) => void : never) extends (k: infer I) => void ? I : never

/** A new Elysia's type: its default decorators, definitions and metadata. */
type Blank = Elysia

/** The routes' data for Eden: the type Elysia's own chain of `.post(path, handler, {body, response})` has. */
export type DescribedRoutes<Routes extends readonly unknown[]> = Elysia<
	'',
	Blank['~Singleton'],
	Blank['~Definitions'],
	Blank['~Metadata'],
	Intersect<EdenOf<Routes[number]>> & Blank['~Routes']
>

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
			response: route.response,
			detail: route.detail,
		} as never)
	}
	return app as unknown as DescribedRoutes<Routes>
}
