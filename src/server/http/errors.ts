import { Elysia, ValidationError } from 'elysia'
import type { Logger } from '../../common/util/logger'
import { isValibot, validateBody } from './body-schema'
import { storageAnswer } from './storage-errors'

/**
 * Errors in Django REST framework's shape (docs/rest.md#conventions): `{"detail": ..., "code"?: ...}`, or
 * field errors `{"<field>": ["message"]}`. Nothing the client sent is ever echoed back: Elysia's own
 * validation and parse bodies quote the input, so they are replaced here.
 */
export type ErrorBody = { detail: string; code?: string } | Record<string, string[]>

export class HttpError extends Error {
	override name = 'HttpError'
	constructor(
		readonly status: number,
		readonly body: ErrorBody,
		readonly headers: Record<string, string> = {},
	) {
		super(typeof body.detail === 'string' ? body.detail : 'invalid request')
	}
}

/**
 * A body's field errors from the valibot schema of a plain Elysia route's `body` hook (a definition's
 * body is checked by its route, src/server/http/rest-route.ts); none for a parameter or a body that
 * is no object.
 */
function bodyFieldErrors(error: ValidationError): Record<string, string[]> | null {
	const validator = error.validator as { schema?: unknown } | undefined
	const schema = isValibot(validator) ? validator : validator?.schema
	const body = error.value
	if (error.type !== 'body' || !isValibot(schema) || typeof body !== 'object' || body === null) return null
	const outcome = validateBody(schema, body)
	return outcome.ok ? null : outcome.errors
}

export const badRequest = (fields: Record<string, string[]>) => new HttpError(400, fields)
export const notFound = () => new HttpError(404, { detail: 'Not found.' })

/**
 * The challenge every 401 carries (RFC 9110 §15.5.2 requires one), as simplejwt words it: the
 * scheme of `Authorization: Bearer <access>` and its realm.
 */
export const WWW_AUTHENTICATE = 'Bearer realm="api"'

/**
 * Adds the challenge to a 401 a handler answered: its own Response (the `me/` hot path builds its
 * own) or a status it set (the WebSocket upgrade). A copy when the Response's headers are immutable.
 */
function challenge(
	response: unknown,
	set: { status?: number | string; headers: Record<string, unknown> },
): Response | Promise<unknown> | undefined {
	// A handler Elysia took for synchronous may hand back a promise of its Response (the `me/` route).
	if (response instanceof Promise)
		return response.then((settled: unknown): unknown => challenge(settled, set) ?? settled)
	if (!(response instanceof Response)) {
		if (set.status === 401 || set.status === 'Unauthorized')
			set.headers['www-authenticate'] = WWW_AUTHENTICATE
		return undefined
	}
	if (response.status !== 401 || response.headers.has('www-authenticate')) return undefined
	try {
		response.headers.set('www-authenticate', WWW_AUTHENTICATE)
		return undefined
	} catch {
		const headers = new Headers(response.headers)
		headers.set('www-authenticate', WWW_AUTHENTICATE)
		return new Response(response.body, { status: 401, statusText: response.statusText, headers })
	}
}

/**
 * Elysia plugin: one error handler for the whole app, and the one place that puts the challenge on
 * every 401 of every route: what handlers answer (`challenge`) and what the error handler answers.
 */
export function errorHandler(log: Logger) {
	return new Elysia({ name: 'error-handler' })
		.onAfterHandle({ as: 'global' }, ({ responseValue, set }) => challenge(responseValue, set))
		.error({ HttpError })
		.onError({ as: 'global' }, ({ code: elysiaCode, error: thrown, set }) => {
			// A route's body parser (src/server/http/rest-route.ts) answers with an HttpError, or fails on the
			// database while it authenticates first: Elysia wraps either in its ParseError.
			const cause = elysiaCode === 'PARSE' ? (thrown as Error).cause : undefined
			const error = cause instanceof Error ? cause : thrown
			const code = cause instanceof HttpError ? 'HttpError' : cause instanceof Error ? 'UNKNOWN' : elysiaCode
			if (code === 'HttpError' && error instanceof HttpError) {
				set.status = error.status
				if (error.status === 401) set.headers['www-authenticate'] = WWW_AUTHENTICATE
				Object.assign(set.headers, error.headers)
				return error.body
			}
			if (code === 'PARSE') {
				set.status = 400
				return { detail: 'JSON parse error - the request body is not valid JSON' }
			}
			if (code === 'VALIDATION') {
				// Elysia's default body lists the submitted value: never send it. A body that fails its
				// route's schema answers DRF's field errors, worded from the same schema.
				set.status = 400
				const fields = error instanceof ValidationError ? bodyFieldErrors(error) : null
				return fields ?? { detail: 'Invalid request.', code: 'invalid' }
			}
			if (code === 'NOT_FOUND') {
				set.status = 404
				return { detail: 'Not found.' }
			}
			const storage = storageAnswer(error)
			log.error(storage ? 'storage failure' : 'unhandled error', {
				// Not `code`: the logger masks that name (one-time login codes travel under it).
				errorCode: String(code),
				error: error instanceof Error ? error : String(error),
			})
			set.status = storage?.status ?? 500
			return storage?.body ?? { detail: 'Internal server error.' }
		})
}
