import { Elysia, t } from 'elysia'
import { BEARER_OR_SESSION, documentedOnly, ROUTE_ERRORS, RestSchemas as S } from 'userbot-gateway/plugin'

/**
 * The userbot routes as data (docs/plugins.md#routes-as-data): path, method, body, answers, summary and
 * auth requirement of each route `build` serves. The OpenAPI document and the typed client read them.
 */
const ID = t.Object({ id: S.PathId() })
/** PATCH's body: the name, checked as POST checks it. */
const Rename = t.Object({ name: t.String({ maxLength: 128 }) })

export const userbotsApi = new Elysia({ name: 'userbots-api' })
	.get('/api/userbots/', documentedOnly, {
		response: { 200: t.Array(S.Userbot), ...ROUTE_ERRORS.authed },
		detail: { summary: "The company's userbots", tags: ['userbots'], security: BEARER_OR_SESSION },
	})
	.post('/api/userbots/', documentedOnly, {
		body: S.UserbotCreate,
		response: {
			201: S.UserbotCreated,
			...ROUTE_ERRORS.badRequest,
			...ROUTE_ERRORS.authed,
			...ROUTE_ERRORS.unavailable,
		},
		detail: {
			summary: 'Adds a userbot and starts its TDLib client',
			tags: ['userbots'],
			security: BEARER_OR_SESSION,
		},
	})
	.get('/api/userbots/:id/', documentedOnly, {
		params: ID,
		response: { 200: S.Userbot, ...ROUTE_ERRORS.authed, ...ROUTE_ERRORS.notFound },
		detail: { summary: 'One userbot', tags: ['userbots'], security: BEARER_OR_SESSION },
	})
	.patch('/api/userbots/:id/', documentedOnly, {
		params: ID,
		body: Rename,
		response: {
			200: S.Userbot,
			...ROUTE_ERRORS.badRequest,
			...ROUTE_ERRORS.authed,
			...ROUTE_ERRORS.notFound,
		},
		detail: { summary: 'Renames a userbot', tags: ['userbots'], security: BEARER_OR_SESSION },
	})
	.post('/api/userbots/:id/logout/', documentedOnly, {
		params: ID,
		response: {
			200: S.AuthorizationState,
			400: S.Detail,
			...ROUTE_ERRORS.authed,
			...ROUTE_ERRORS.notFound,
			...ROUTE_ERRORS.unavailable,
		},
		detail: {
			summary:
				'Logs a logged-in userbot out of Telegram; it stays, its new client waiting for a phone number',
			tags: ['userbots'],
			security: BEARER_OR_SESSION,
		},
	})
	.post('/api/userbots/:id/restart/', documentedOnly, {
		params: ID,
		response: {
			200: S.AuthorizationState,
			...ROUTE_ERRORS.authed,
			...ROUTE_ERRORS.notFound,
			...ROUTE_ERRORS.unavailable,
		},
		detail: {
			summary: "Stops the userbot's TDLib client and starts it again from its database",
			tags: ['userbots'],
			security: BEARER_OR_SESSION,
		},
	})
	.delete('/api/userbots/:id/', documentedOnly, {
		params: ID,
		response: { 204: t.Void(), ...ROUTE_ERRORS.authed, ...ROUTE_ERRORS.notFound },
		detail: {
			summary: 'Deletes a userbot: logged out of Telegram, its files removed',
			tags: ['userbots'],
			security: BEARER_OR_SESSION,
		},
	})
	.put('/api/userbots/:id/proxy/', documentedOnly, {
		params: ID,
		body: S.ProxySet,
		response: {
			200: S.ProxyView,
			...ROUTE_ERRORS.badRequest,
			...ROUTE_ERRORS.authed,
			...ROUTE_ERRORS.notFound,
		},
		detail: {
			summary: "Sets the userbot's proxy: its client starts again behind it, then it is checked",
			tags: ['userbots'],
			security: BEARER_OR_SESSION,
		},
	})
	.delete('/api/userbots/:id/proxy/', documentedOnly, {
		params: ID,
		response: { 204: t.Void(), ...ROUTE_ERRORS.authed, ...ROUTE_ERRORS.notFound },
		detail: {
			summary: "Removes the userbot's proxy: its client starts again without one",
			tags: ['userbots'],
			security: BEARER_OR_SESSION,
		},
	})
	.post('/api/userbots/:id/proxy/check/', documentedOnly, {
		params: ID,
		response: { 200: S.ProxyView, ...ROUTE_ERRORS.authed, ...ROUTE_ERRORS.notFound },
		detail: {
			summary: "Checks the userbot's proxy again (TDLib's pingProxy)",
			tags: ['userbots'],
			security: BEARER_OR_SESSION,
		},
	})
	.post('/api/userbots/:id/phone/', documentedOnly, {
		params: ID,
		body: S.PhoneNumber,
		response: {
			200: S.AuthorizationState,
			400: t.Union([S.FieldErrors, S.Detail]),
			...ROUTE_ERRORS.authed,
			...ROUTE_ERRORS.notFound,
		},
		detail: { summary: 'Log-in step: the phone number', tags: ['userbots'], security: BEARER_OR_SESSION },
	})
	.post('/api/userbots/:id/code/', documentedOnly, {
		params: ID,
		body: S.Code,
		response: {
			200: S.AuthorizationState,
			400: t.Union([S.FieldErrors, S.Detail]),
			...ROUTE_ERRORS.authed,
			...ROUTE_ERRORS.notFound,
		},
		detail: {
			summary: 'Log-in step: the code Telegram sent',
			tags: ['userbots'],
			security: BEARER_OR_SESSION,
		},
	})
	.post('/api/userbots/:id/password/', documentedOnly, {
		params: ID,
		body: S.TwoFactorPassword,
		response: {
			200: S.AuthorizationState,
			400: t.Union([S.FieldErrors, S.Detail]),
			...ROUTE_ERRORS.authed,
			...ROUTE_ERRORS.notFound,
		},
		detail: {
			summary: "Log-in step: the account's 2FA password",
			tags: ['userbots'],
			security: BEARER_OR_SESSION,
		},
	})
	.post('/api/userbots/:id/register/', documentedOnly, {
		params: ID,
		body: S.NewAccount,
		response: {
			200: S.AuthorizationState,
			400: t.Union([S.FieldErrors, S.Detail]),
			...ROUTE_ERRORS.authed,
			...ROUTE_ERRORS.notFound,
		},
		detail: { summary: 'Log-in step: names a new account', tags: ['userbots'], security: BEARER_OR_SESSION },
	})
	.post('/api/userbots/:id/qr/', documentedOnly, {
		params: ID,
		response: { 200: S.QrLink, 400: S.Detail, ...ROUTE_ERRORS.authed, ...ROUTE_ERRORS.notFound },
		detail: {
			summary: 'Log-in by QR code: the link to show',
			tags: ['userbots'],
			security: BEARER_OR_SESSION,
		},
	})
	.post('/api/userbots/:id/files/', documentedOnly, {
		params: ID,
		body: S.Upload,
		response: {
			201: S.Uploaded,
			400: S.Detail,
			...ROUTE_ERRORS.authed,
			...ROUTE_ERRORS.notFound,
			413: S.Detail,
		},
		detail: {
			summary: 'Uploads a media file for commands ({"upload": "<file>"})',
			tags: ['userbots'],
			security: BEARER_OR_SESSION,
		},
	})
	.get('/api/userbots/:id/files/:file_id', documentedOnly, {
		params: t.Object({
			id: S.PathId(),
			file_id: t.Unsafe<number>({ type: 'integer', format: 'int32', description: "TDLib's file id" }),
		}),
		response: {
			200: S.FileBytes,
			202: S.FileProgress,
			206: S.FileBytes,
			304: t.Void(),
			...ROUTE_ERRORS.badRequest,
			...ROUTE_ERRORS.authed,
			...ROUTE_ERRORS.notFound,
			413: S.Detail,
			416: S.Detail,
		},
		detail: {
			summary:
				"Streams a file of the userbot's account by TDLib's file id (Range, ETag); 202 with the progress while TDLib downloads it",
			tags: ['userbots'],
			security: BEARER_OR_SESSION,
		},
	})
