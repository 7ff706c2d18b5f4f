import { Elysia } from 'elysia'
import {
	answerOtherMethods,
	BEARER_OR_SESSION,
	byParam,
	documentedAs,
	OF_COMPANY,
	ROUTE_ERRORS,
	restFace,
	restRoute,
	RestSchemas as S,
	serveRoutes,
} from 'userbot-gateway/plugin'
import * as v from 'valibot'
import { RestBodies } from './bodies'
import { fileIdOf, fileResponse, pendingResponse } from './file-response'
import { fileErrors } from './lifecycle/file-download'
import { parseProxyBody } from './lifecycle/proxy-settings'
import {
	LIFECYCLE,
	logOut,
	registerAccount,
	rename,
	requestQr,
	restart,
	submitCode,
	submitPassword,
	submitPhone,
} from './operations'
import {
	clientOf,
	created,
	deleted,
	idOf,
	lifecycleRoutes,
	proxyOfCreate,
	type Userbots,
	uploadedFile,
	userbotLocators,
} from './route-context'

const BASE = '/api/userbots'
const ID = S.IdParams
/** What the document says of every route: its summary, the userbots tag, a caller required. */
const about = (operationId: string, summary: string) => ({
	operationId,
	summary,
	tags: [TAG],
	security: BEARER_OR_SESSION,
})
const { authed, notFound: missing, badRequest: invalid, unavailable } = ROUTE_ERRORS
const TAG = 'userbots'

const THIS_ONE = [byParam()] as const
/** What the routes need (docs/policy.md): reading a userbot, using it, and what only the owner (or a grant) may. */
const reads = { action: 'read', resource: 'userbot', find: THIS_ONE } as const
const uses = { action: 'write', resource: 'userbot', find: THIS_ONE, group: LIFECYCLE } as const
const manages = {
	action: 'manage',
	resource: 'userbot',
	find: THIS_ONE,
	permission: 'userbots.manage',
	group: LIFECYCLE,
} as const
const ends = { ...manages, destructive: true } as const

/**
 * The REST face of the lifecycle (docs/rest.md#rest-userbots): session, bearer or API key, scoped to the
 * caller's company. Members use the company's userbots; creating, deleting and the card's actions take
 * `userbots.manage` (owners, or a member granted it). Who may is each route's policy entry, decided by
 * the guard before a body is read (docs/policy.md). The log-in steps that send a code or password count
 * against the userbot's guess limit, as their commands do. Each route is one definition
 * (docs/plugins.md#routes-as-data): served from it and described from it (./api.ts). The log-in steps
 * and the card's actions are operations with a command face too (./operations.ts): their routes are
 * the operations' REST faces.
 */
export const userbotRouteList = [
	restRoute({
		method: 'get',
		path: `${BASE}/`,
		policy: { action: 'read', resource: 'userbot', find: [OF_COMPANY] },
		response: { 200: v.array(S.Userbot), ...authed },
		detail: about('listUserbots', "The company's userbots"),
		handle: (u: Userbots, { principal }) => u.service.list(principal),
	}),
	restRoute({
		method: 'post',
		path: `${BASE}/`,
		policy: { ...manages, find: [OF_COMPANY] },
		// The proxy's own fields are checked by `proxyOfCreate`, their errors nested under `proxy`.
		body: RestBodies.create,
		response: { 201: S.UserbotCreated, ...invalid, ...authed, ...unavailable },
		detail: about('createUserbot', 'Adds a userbot and starts its TDLib client'),
		handle: async (u: Userbots, input) => {
			const proxy = proxyOfCreate(input.body.proxy)
			return created(await u.service.create(input.principal, input.body.name, proxy, clientOf(u, input)))
		},
	}),
	restRoute({
		method: 'get',
		path: `${BASE}/:id/`,
		policy: reads,
		params: ID,
		response: { 200: S.Userbot, ...authed, ...missing },
		detail: about('getUserbot', 'One userbot'),
		handle: (u: Userbots, { params, principal }) => u.service.get(principal, idOf(params.id)),
	}),
	restFace(rename, TAG),
	restFace(logOut, TAG),
	restFace(restart, TAG),
	restRoute({
		method: 'delete',
		path: `${BASE}/:id/`,
		policy: ends,
		params: ID,
		response: { 204: v.void(), ...authed, ...missing },
		detail: about('deleteUserbot', 'Deletes a userbot: logged out of Telegram, its files removed'),
		handle: async (u: Userbots, input) => {
			await u.service.remove(input.principal, idOf(input.params.id), clientOf(u, input))
			return deleted()
		},
	}),
	restFace(submitPhone, TAG),
	restFace(submitCode, TAG),
	restFace(submitPassword, TAG),
	restFace(registerAccount, TAG),
	restFace(requestQr, TAG),
	restRoute({
		method: 'post',
		path: `${BASE}/:id/files/`,
		policy: uses,
		params: ID,
		// Multipart: the handler reads the form itself, after the caller and the userbot are checked.
		body: S.Upload,
		readsRequest: true,
		response: { 201: S.Uploaded, 400: S.Detail, ...authed, ...missing, 413: S.Detail },
		detail: about('uploadUserbotFile', 'Uploads a media file for commands ({"upload": "<file>"})'),
		handle: async (u: Userbots, { params, request, principal }) => {
			const file = await uploadedFile(u, request)
			return created(await u.service.upload(principal, idOf(params.id), file))
		},
	}),
	// Files out (docs/read-side.md#files-out): a file of the account by TDLib's id, never by a path.
	restRoute({
		method: 'get',
		path: `${BASE}/:id/files/:file_id`,
		policy: reads,
		params: v.object({
			id: S.PathId(),
			file_id: documentedAs(
				v.custom<number>(() => true),
				{
					type: 'integer',
					format: 'int32',
					description: "TDLib's file id",
				},
			),
		}),
		response: {
			200: S.FileBytes,
			202: S.FileProgress,
			206: S.FileBytes,
			304: v.void(),
			...invalid,
			...authed,
			...missing,
			413: S.Detail,
			416: S.Detail,
		},
		detail: about(
			'downloadUserbotFile',
			"Streams a file of the userbot's account by TDLib's file id (Range, ETag); 202 with the progress while TDLib downloads it",
		),
		handle: async (u: Userbots, { params, principal, request }) => {
			const userbotId = idOf(params.id)
			await u.service.get(principal, userbotId)
			const fileId = fileIdOf(params.file_id ?? '')
			if (fileId === undefined) throw fileErrors.notFound()
			const outcome = await u.service.file(principal, userbotId, fileId)
			return outcome.ready ? fileResponse(outcome, request) : pendingResponse(outcome)
		},
	}),
	// The userbot's proxy (docs/operator.md#userbot-proxies): one per userbot, replaced whole by PUT.
	restRoute({
		method: 'put',
		path: `${BASE}/:id/proxy/`,
		policy: manages,
		params: ID,
		// Its fields depend on its type (and may not be sent for another): `parseProxyBody` checks them all at once.
		body: S.ProxySet,
		validate: false,
		response: { 200: S.ProxyView, ...invalid, ...authed, ...missing },
		detail: about(
			'setUserbotProxy',
			"Sets the userbot's proxy: its client starts again behind it, then it is checked",
		),
		handle: (u: Userbots, input) => {
			const settings = parseProxyBody(input.body as Record<string, unknown>)
			return u.proxies.set(input.principal, idOf(input.params.id), settings, clientOf(u, input))
		},
	}),
	restRoute({
		method: 'delete',
		path: `${BASE}/:id/proxy/`,
		policy: ends,
		params: ID,
		response: { 204: v.void(), ...authed, ...missing },
		detail: about('removeUserbotProxy', "Removes the userbot's proxy: its client starts again without one"),
		handle: async (u: Userbots, input) => {
			await u.proxies.remove(input.principal, idOf(input.params.id), clientOf(u, input))
			return deleted()
		},
	}),
	restRoute({
		method: 'post',
		path: `${BASE}/:id/proxy/check/`,
		policy: uses,
		params: ID,
		response: { 200: S.ProxyView, ...authed, ...missing },
		detail: about('checkUserbotProxy', "Checks the userbot's proxy again (TDLib's pingProxy)"),
		handle: (u: Userbots, { params, principal }) => u.proxies.check(principal, idOf(params.id)),
	}),
] as const

export function userbotRoutes(u: Userbots): Elysia {
	const app: Elysia = new Elysia({ name: 'userbots-routes' })
	app.use(serveRoutes(u, lifecycleRoutes(userbotRouteList), u.ctx.auth.guard(userbotLocators(u.ctx))))
	// A known path with a method it does not take: 405 with Allow, as Django REST framework answers.
	answerOtherMethods(app)
	return app
}
