import type { CreateEden, Elysia, ResolvePath } from 'elysia'
import type * as v from 'valibot'

/**
 * The types a plugin's route definitions give its Eden client (src/server/http/rest-route.ts
 * `describeRoutes`): what each route takes and answers, as Elysia's own chain of
 * `.post(path, handler, {body, response})` would type it.
 */

/** A route's body, parameters or answer schema: valibot's, the one schema language (issue 44). */
export type AnyBody = v.GenericSchema

/** What a client sends (Eden's body type). */
type SentOf<B> = B extends v.GenericSchema ? v.InferInput<B> : unknown

type ResponsesOf<R> = { [S in keyof R]: R[S] extends v.GenericSchema ? v.InferOutput<R[S]> : never }
type EdenOf<R> = R extends {
	method: infer M extends string
	path: infer P extends string
	response: infer Res
}
	? CreateEden<
			P,
			{
				[K in M]: {
					body: R extends { body?: infer B extends AnyBody } ? SentOf<B> : unknown
					params: R extends { params?: infer Params extends AnyBody } ? SentOf<Params> : ResolvePath<P>
					query: R extends { query?: infer Q extends AnyBody } ? SentOf<Q> : unknown
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
