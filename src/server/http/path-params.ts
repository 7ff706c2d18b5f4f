import * as v from 'valibot'
import { documentedAs } from './body-schema'

/**
 * What a REST route's path and auth requirement look like in the document, shared by the routes'
 * definitions (src/server/openapi/schemas.ts re-exports them) and an operation's REST face.
 */

/** A path's id: a row's 64-bit integer key, written in the path as digits. */
export const PathId = () =>
	documentedAs(
		v.custom<number>(() => true),
		{ type: 'integer', format: 'int64', minimum: 0 },
	)
/**
 * The parameters of a path `/:id/`, as the document shows them: documented only, the handlers parse
 * them (an unknown id is a 404, not a 400).
 */
export const IdParams = v.object({ id: PathId() })

/** The auth requirement of a route that needs a caller: a bearer token or a session cookie. */
export const BEARER_OR_SESSION: Array<Record<string, string[]>> = [{ bearer: [] }, { session: [] }]
