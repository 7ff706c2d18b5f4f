import type { AnyElysia } from 'elysia'
import * as S from './schemas'

/**
 * What a plugin's REST routes are, as data (docs/plugins.md#routes-as-data): an Elysia instance whose
 * routes carry each route's path, method, request body, parameters, answers (success and errors) and
 * summary, tags and auth requirement, and whose handlers never run. The plugin hands it over as its
 * `api`; the OpenAPI document takes every served route's description from the loaded plugins' data,
 * and the typed client (`userbot-gateway/client`) is typed by the built-in plugins' data.
 */
export type RouteData = AnyElysia

export { BEARER_OR_SESSION } from '../http/path-params'
export { documentedOnly } from '../http/rest-route'

/** The refusals routes share, in Django REST framework's shapes, to spread into a route's `response`. */
export const ROUTE_ERRORS = {
	badRequest: { 400: S.FieldErrors },
	unauthenticated: { 401: S.Detail },
	forbidden: { 403: S.Detail },
	notFound: { 404: S.Detail },
	throttled: { 429: S.Detail },
	unavailable: { 503: S.Detail },
	/** 401 and 403: every route that needs a caller. */
	authed: { 401: S.Detail, 403: S.Detail },
}
