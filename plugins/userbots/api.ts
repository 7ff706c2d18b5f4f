import { Elysia, type TSchema, t } from 'elysia'
import { BEARER_OR_SESSION, documentedOnly, ROUTE_ERRORS, RestSchemas as S } from 'userbot-gateway/plugin'

/**
 * The userbot routes as data (docs/plugins.md#routes-as-data): path, method, body, answers, summary and
 * auth requirement of each route `build` serves. The OpenAPI document and the typed client read them.
 */
const ID = t.Object({ id: S.PathId() })

/** What the document says of every route: its summary, the userbots tag, a caller required. */
const about = (summary: string) => ({ summary, tags: ['userbots'], security: BEARER_OR_SESSION })

/** A log-in step: one userbot, a body, its new authorization state or why the step was refused. */
const logInStep = <const B extends TSchema>(summary: string, body: B) => ({
	params: ID,
	body,
	response: {
		200: S.AuthorizationState,
		400: t.Union([S.FieldErrors, S.Detail]),
		...ROUTE_ERRORS.authed,
		...ROUTE_ERRORS.notFound,
	},
	detail: about(summary),
})

/** PATCH's body: the name, checked as POST checks it. */
const Rename = t.Object({ name: t.String({ maxLength: 128 }) })

export const userbotsApi = new Elysia({ name: 'userbots-api' })
	.get('/api/userbots/', documentedOnly, {
		response: { 200: t.Array(S.Userbot), ...ROUTE_ERRORS.authed },
		detail: about("The company's userbots"),
	})
	.post('/api/userbots/', documentedOnly, {
		body: S.UserbotCreate,
		response: {
			201: S.UserbotCreated,
			...ROUTE_ERRORS.badRequest,
			...ROUTE_ERRORS.authed,
			...ROUTE_ERRORS.unavailable,
		},
		detail: about('Adds a userbot and starts its TDLib client'),
	})
	.get('/api/userbots/:id/', documentedOnly, {
		params: ID,
		response: { 200: S.Userbot, ...ROUTE_ERRORS.authed, ...ROUTE_ERRORS.notFound },
		detail: about('One userbot'),
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
		detail: about('Renames a userbot'),
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
		detail: about(
			'Logs a logged-in userbot out of Telegram; it stays, its new client waiting for a phone number',
		),
	})
	.post('/api/userbots/:id/restart/', documentedOnly, {
		params: ID,
		response: {
			200: S.AuthorizationState,
			...ROUTE_ERRORS.authed,
			...ROUTE_ERRORS.notFound,
			...ROUTE_ERRORS.unavailable,
		},
		detail: about("Stops the userbot's TDLib client and starts it again from its database"),
	})
	.delete('/api/userbots/:id/', documentedOnly, {
		params: ID,
		response: { 204: t.Void(), ...ROUTE_ERRORS.authed, ...ROUTE_ERRORS.notFound },
		detail: about('Deletes a userbot: logged out of Telegram, its files removed'),
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
		detail: about("Sets the userbot's proxy: its client starts again behind it, then it is checked"),
	})
	.delete('/api/userbots/:id/proxy/', documentedOnly, {
		params: ID,
		response: { 204: t.Void(), ...ROUTE_ERRORS.authed, ...ROUTE_ERRORS.notFound },
		detail: about("Removes the userbot's proxy: its client starts again without one"),
	})
	.post('/api/userbots/:id/proxy/check/', documentedOnly, {
		params: ID,
		response: { 200: S.ProxyView, ...ROUTE_ERRORS.authed, ...ROUTE_ERRORS.notFound },
		detail: about("Checks the userbot's proxy again (TDLib's pingProxy)"),
	})
	.post('/api/userbots/:id/phone/', documentedOnly, logInStep('Log-in step: the phone number', S.PhoneNumber))
	.post('/api/userbots/:id/code/', documentedOnly, logInStep('Log-in step: the code Telegram sent', S.Code))
	.post(
		'/api/userbots/:id/password/',
		documentedOnly,
		logInStep("Log-in step: the account's 2FA password", S.TwoFactorPassword),
	)
	.post(
		'/api/userbots/:id/register/',
		documentedOnly,
		logInStep('Log-in step: names a new account', S.NewAccount),
	)
	.post('/api/userbots/:id/qr/', documentedOnly, {
		params: ID,
		response: { 200: S.QrLink, 400: S.Detail, ...ROUTE_ERRORS.authed, ...ROUTE_ERRORS.notFound },
		detail: about('Log-in by QR code: the link to show'),
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
		detail: about('Uploads a media file for commands ({"upload": "<file>"})'),
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
		detail: about(
			"Streams a file of the userbot's account by TDLib's file id (Range, ETag); 202 with the progress while TDLib downloads it",
		),
	})
