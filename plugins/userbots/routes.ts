import { Elysia, type TSchema, t } from 'elysia'
import {
	answerOtherMethods,
	BEARER_OR_SESSION,
	badRequest,
	fieldErrors,
	fileErrors,
	parseProxyBody,
	ROUTE_ERRORS,
	restRoute,
	RestSchemas as S,
	serveRoutes,
} from 'userbot-gateway/plugin'
import * as v from 'valibot'
import { bodies, RestBodies } from './bodies'
import { fileIdOf, fileResponse, pendingResponse } from './file-response'
import {
	caller,
	clientOf,
	created,
	deleted,
	guessing,
	idOf,
	lifecycleRoutes,
	ownUserbot,
	proxyOfCreate,
	type Userbots,
	uploadedFile,
} from './route-context'

const rest = bodies('rest')
const BASE = '/api/userbots'
const ID = t.Object({ id: S.PathId() })
/** What the document says of every route: its summary, the userbots tag, a caller required. */
const about = (summary: string) => ({ summary, tags: ['userbots'], security: BEARER_OR_SESSION })
const { authed, notFound: missing, badRequest: invalid, unavailable } = ROUTE_ERRORS

/** A log-in step: one userbot, a body, its new authorization state or why the step was refused. */
const logInStep = <const P extends string, B extends TSchema>(path: P, summary: string, body: B) => ({
	method: 'post' as const,
	path,
	params: ID,
	body,
	response: { 200: S.AuthorizationState, 400: t.Union([S.FieldErrors, S.Detail]), ...authed, ...missing },
	detail: about(summary),
	before: caller,
})

/**
 * The REST face of the lifecycle (docs/rest.md#rest-userbots): session or bearer, scoped to the caller's
 * company. Members use the company's userbots; creating and deleting one takes `userbots.manage` (owners, or
 * a member granted it: the service checks). The log-in steps that send a code or password count against the
 * userbot's guess limit, as their commands do. Each route is one definition (docs/plugins.md#routes-as-data):
 * served from it and described from it (./api.ts). The caller is authenticated before a body is read
 * (./route-context.ts).
 */
export const userbotRouteList = [
	restRoute({
		method: 'get',
		path: `${BASE}/`,
		response: { 200: t.Array(S.Userbot), ...authed },
		detail: about("The company's userbots"),
		before: caller,
		handle: (u: Userbots, { pre }) => u.service.list(pre),
	}),
	restRoute({
		method: 'post',
		path: `${BASE}/`,
		body: RestBodies.create,
		// Checked here, not by the hook: Elysia's normaliser would make an object of a `proxy` that is
		// none (it reads the field's JSON), and the proxy's own errors nest under `proxy`.
		validate: false,
		response: { 201: S.UserbotCreated, ...invalid, ...authed, ...unavailable },
		detail: about('Adds a userbot and starts its TDLib client'),
		before: caller,
		handle: async (u: Userbots, input) => {
			const errors = fieldErrors(RestBodies.create, input.body)
			if (Object.keys(errors).length > 0) throw badRequest(errors)
			const { name } = v.parse(rest.create, input.body)
			const proxy = proxyOfCreate(input.body.proxy)
			return created(await u.service.create(input.pre, name, proxy, clientOf(u, input)))
		},
	}),
	restRoute({
		method: 'get',
		path: `${BASE}/:id/`,
		params: ID,
		response: { 200: S.Userbot, ...authed, ...missing },
		detail: about('One userbot'),
		before: caller,
		handle: (u: Userbots, { params, pre }) => u.service.get(pre, idOf(params.id)),
	}),
	// The card's actions (docs/rest.md#userbot-actions): rename, log out, restart; `userbots.manage`.
	restRoute({
		method: 'patch',
		path: `${BASE}/:id/`,
		params: ID,
		body: RestBodies.rename,
		response: { 200: S.Userbot, ...invalid, ...authed, ...missing },
		detail: about('Renames a userbot'),
		before: ownUserbot,
		handle: (u: Userbots, input) => {
			const { name } = v.parse(rest.create, input.body)
			return u.service.rename(input.pre.principal, input.pre.id, name, clientOf(u, input))
		},
	}),
	restRoute({
		method: 'post',
		path: `${BASE}/:id/logout/`,
		params: ID,
		response: { 200: S.AuthorizationState, 400: S.Detail, ...authed, ...missing, ...unavailable },
		detail: about(
			'Logs a logged-in userbot out of Telegram; it stays, its new client waiting for a phone number',
		),
		before: caller,
		handle: (u: Userbots, input) => u.service.logOut(input.pre, idOf(input.params.id), clientOf(u, input)),
	}),
	restRoute({
		method: 'post',
		path: `${BASE}/:id/restart/`,
		params: ID,
		// 400: the client could not start again (its proxy refused: docs/operator.md#userbot-proxies).
		response: { 200: S.AuthorizationState, 400: S.Detail, ...authed, ...missing, ...unavailable },
		detail: about("Stops the userbot's TDLib client and starts it again from its database"),
		before: caller,
		handle: (u: Userbots, input) => u.service.restart(input.pre, idOf(input.params.id), clientOf(u, input)),
	}),
	restRoute({
		method: 'delete',
		path: `${BASE}/:id/`,
		params: ID,
		response: { 204: t.Void(), ...authed, ...missing },
		detail: about('Deletes a userbot: logged out of Telegram, its files removed'),
		before: caller,
		handle: async (u: Userbots, input) => {
			await u.service.remove(input.pre, idOf(input.params.id), clientOf(u, input))
			return deleted()
		},
	}),
	restRoute({
		...logInStep(`${BASE}/:id/phone/`, 'Log-in step: the phone number', RestBodies.phone),
		handle: (u: Userbots, { body, params, pre }) =>
			u.service.submitPhone(pre, idOf(params.id), v.parse(rest.phone, body).phone_number),
	}),
	restRoute({
		...logInStep(`${BASE}/:id/code/`, 'Log-in step: the code Telegram sent', RestBodies.code),
		handle: (u: Userbots, { body, params, pre }) => {
			const { code } = v.parse(rest.code, body)
			const userbotId = idOf(params.id)
			return guessing(u, pre, userbotId, () => u.service.submitCode(pre, userbotId, code))
		},
	}),
	restRoute({
		...logInStep(`${BASE}/:id/password/`, "Log-in step: the account's 2FA password", RestBodies.password),
		handle: (u: Userbots, { body, params, pre }) => {
			const { password } = v.parse(rest.password, body)
			const userbotId = idOf(params.id)
			return guessing(u, pre, userbotId, () => u.service.submitPassword(pre, userbotId, password))
		},
	}),
	restRoute({
		...logInStep(`${BASE}/:id/register/`, 'Log-in step: names a new account', RestBodies.registration),
		handle: (u: Userbots, { body, params, pre }) => {
			const { first_name, last_name } = v.parse(rest.registration, body)
			return u.service.submitRegistration(pre, idOf(params.id), first_name, last_name)
		},
	}),
	restRoute({
		method: 'post',
		path: `${BASE}/:id/qr/`,
		params: ID,
		response: { 200: S.QrLink, 400: S.Detail, ...authed, ...missing },
		detail: about('Log-in by QR code: the link to show'),
		before: caller,
		handle: (u: Userbots, { params, pre }) => u.service.requestQr(pre, idOf(params.id)),
	}),
	restRoute({
		method: 'post',
		path: `${BASE}/:id/files/`,
		params: ID,
		// Multipart: the handler reads the form itself, after the caller and the userbot are checked.
		body: S.Upload,
		readsRequest: true,
		response: { 201: S.Uploaded, 400: S.Detail, ...authed, ...missing, 413: S.Detail },
		detail: about('Uploads a media file for commands ({"upload": "<file>"})'),
		before: ownUserbot,
		handle: async (u: Userbots, { request, pre }) => {
			const file = await uploadedFile(u, request)
			return created(await u.service.upload(pre.principal, pre.id, file))
		},
	}),
	// Files out (docs/read-side.md#files-out): a file of the account by TDLib's id, never by a path.
	restRoute({
		method: 'get',
		path: `${BASE}/:id/files/:file_id`,
		params: t.Object({
			id: S.PathId(),
			file_id: t.Unsafe<number>({ type: 'integer', format: 'int32', description: "TDLib's file id" }),
		}),
		response: {
			200: S.FileBytes,
			202: S.FileProgress,
			206: S.FileBytes,
			304: t.Void(),
			...invalid,
			...authed,
			...missing,
			413: S.Detail,
			416: S.Detail,
		},
		detail: about(
			"Streams a file of the userbot's account by TDLib's file id (Range, ETag); 202 with the progress while TDLib downloads it",
		),
		before: caller,
		handle: async (u: Userbots, { params, pre, request }) => {
			const userbotId = idOf(params.id)
			await u.service.get(pre, userbotId)
			const fileId = fileIdOf(params.file_id ?? '')
			if (fileId === undefined) throw fileErrors.notFound()
			const outcome = await u.service.file(pre, userbotId, fileId)
			return outcome.ready ? fileResponse(outcome, request) : pendingResponse(outcome)
		},
	}),
	// The userbot's proxy (docs/operator.md#userbot-proxies): one per userbot, replaced whole by PUT.
	restRoute({
		method: 'put',
		path: `${BASE}/:id/proxy/`,
		params: ID,
		// Its fields depend on its type (and may not be sent for another): `parseProxyBody` checks them all at once.
		body: S.ProxySet,
		validate: false,
		response: { 200: S.ProxyView, ...invalid, ...authed, ...missing },
		detail: about("Sets the userbot's proxy: its client starts again behind it, then it is checked"),
		before: caller,
		handle: (u: Userbots, input) => {
			const settings = parseProxyBody(input.body as Record<string, unknown>)
			return u.proxies.set(input.pre, idOf(input.params.id), settings, clientOf(u, input))
		},
	}),
	restRoute({
		method: 'delete',
		path: `${BASE}/:id/proxy/`,
		params: ID,
		response: { 204: t.Void(), ...authed, ...missing },
		detail: about("Removes the userbot's proxy: its client starts again without one"),
		before: caller,
		handle: async (u: Userbots, input) => {
			await u.proxies.remove(input.pre, idOf(input.params.id), clientOf(u, input))
			return deleted()
		},
	}),
	restRoute({
		method: 'post',
		path: `${BASE}/:id/proxy/check/`,
		params: ID,
		response: { 200: S.ProxyView, ...authed, ...missing },
		detail: about("Checks the userbot's proxy again (TDLib's pingProxy)"),
		before: caller,
		handle: (u: Userbots, { params, pre }) => u.proxies.check(pre, idOf(params.id)),
	}),
] as const

export function userbotRoutes(u: Userbots): Elysia {
	const app: Elysia = new Elysia({ name: 'userbots-routes' })
	app.use(serveRoutes(u, lifecycleRoutes(userbotRouteList)))
	// A known path with a method it does not take: 405 with Allow, as Django REST framework answers.
	answerOtherMethods(app)
	return app
}
