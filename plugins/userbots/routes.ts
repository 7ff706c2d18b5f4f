import { Elysia } from 'elysia'
import {
	type AppContext,
	answerOtherMethods,
	badRequest,
	checkBody,
	type ErrorBody,
	fileErrors,
	HttpError,
	notFound,
	type Principal,
	ProxyControl,
	type ProxySettings,
	parseProxyBody,
	readJsonObject,
	throttled,
	tooLarge,
	UserbotError,
	type UserbotService,
} from 'userbot-gateway/plugin'
import { bodies } from './bodies'
import { fileIdOf, fileResponse, pendingResponse } from './file-response'

const rest = bodies('rest')
const BASE = '/api/userbots'
/** Multipart framing around the file: boundaries and part headers. */
const MULTIPART_OVERHEAD = 64 * 1024

/**
 * The optional `proxy` of a new userbot, checked as `PUT .../proxy/` checks it; its field errors
 * nest under `proxy`, as Django REST framework nests a serializer's.
 */
function proxyOfCreate(raw: unknown): ProxySettings | undefined {
	if (raw === undefined || raw === null) return undefined
	if (typeof raw !== 'object' || Array.isArray(raw))
		throw badRequest({ proxy: ['Invalid data. Expected a dictionary.'] })
	try {
		return parseProxyBody(raw as Record<string, unknown>)
	} catch (err) {
		if (err instanceof HttpError) throw new HttpError(400, { proxy: err.body } as unknown as ErrorBody)
		throw err
	}
}

function toHttp(err: unknown): unknown {
	if (err instanceof UserbotError) {
		return new HttpError(
			err.status,
			err.code ? { detail: err.detail, code: err.code } : { detail: err.detail },
		)
	}
	return err
}

/**
 * The REST face of the lifecycle (docs/rest.md#rest-userbots): session or bearer, scoped to the caller's
 * company. Members use the company's userbots; creating and deleting one takes `userbots.manage` (owners, or
 * a member granted it: the service checks). The log-in steps that send a code or password count against the
 * userbot's guess limit, as their commands do.
 */
export function userbotRoutes(ctx: AppContext, service: UserbotService): Elysia {
	const proxies = new ProxyControl(ctx, service)
	const principalOf = async (request: Request): Promise<Principal> => {
		const outcome = await ctx.auth.authenticate(request)
		if (!outcome.ok) throw new HttpError(outcome.status, outcome.body)
		return outcome.principal
	}
	/** A log-in step that checks a secret: counted first, given back when it was right. */
	const guessing = async <T>(principal: Principal, userbotId: number, step: () => Promise<T>): Promise<T> => {
		await service.get(principal, userbotId)
		const wait = await ctx.auth.guesses.take(userbotId)
		if (wait > 0) throw throttled(wait)
		const answer = await step()
		await ctx.auth.guesses.giveBack(userbotId)
		return answer
	}
	const idOf = (raw: string): number => {
		if (!/^\d{1,15}$/.test(raw)) throw notFound()
		return Number(raw)
	}
	type Server = Parameters<typeof ctx.auth.clientAddress>[0]
	/** Authenticates, then runs `fn` with the lifecycle's errors turned into HTTP answers. */
	const guarded =
		<T>(fn: (principal: Principal, request: Request, id: string, client: string) => Promise<T>) =>
		async ({
			request,
			params,
			server,
		}: {
			request: Request
			params?: Record<string, string>
			server?: Server
		}) => {
			const principal = await principalOf(request)
			try {
				return await fn(principal, request, params?.id ?? '', ctx.auth.clientAddress(server, request))
			} catch (err) {
				throw toHttp(err)
			}
		}
	const created = (body: unknown) => Response.json(body, { status: 201 })
	const none = { parse: 'none' } as const

	// Typed as the plain instance the plugin contract returns; Elysia's methods register in place.
	const app: Elysia = new Elysia({ name: 'userbots-routes' })
	app.get(
		`${BASE}/`,
		guarded((p) => service.list(p)),
	)
	app.post(
		`${BASE}/`,
		guarded(async (p, request, _id, client) => {
			const body = await readJsonObject(request)
			const { name } = checkBody(rest.create, body)
			return created(await service.create(p, name, proxyOfCreate(body.proxy), client))
		}),
		none,
	)
	app.get(
		`${BASE}/:id/`,
		guarded((p, _r, id) => service.get(p, idOf(id))),
	)
	// The card's actions (docs/rest.md#userbot-actions): rename, log out, restart; `userbots.manage`.
	app.patch(
		`${BASE}/:id/`,
		guarded(async (p, request, id, client) => {
			const userbotId = idOf(id)
			// Another company's userbot is a 404 before its body is looked at.
			await service.get(p, userbotId)
			const body = await readJsonObject(request)
			if (!('name' in body)) throw badRequest({ name: ['This field is required.'] })
			const { name } = checkBody(rest.create, body)
			return service.rename(p, userbotId, name, client)
		}),
		none,
	)
	app.post(
		`${BASE}/:id/logout/`,
		guarded((p, _r, id, client) => service.logOut(p, idOf(id), client)),
		none,
	)
	app.post(
		`${BASE}/:id/restart/`,
		guarded((p, _r, id, client) => service.restart(p, idOf(id), client)),
		none,
	)
	app.delete(
		`${BASE}/:id/`,
		guarded(async (p, _r, id, client) => {
			await service.remove(p, idOf(id), client)
			return new Response(null, { status: 204 })
		}),
		none,
	)
	app.post(
		`${BASE}/:id/phone/`,
		guarded(async (p, request, id) => {
			const body = checkBody(rest.phone, await readJsonObject(request))
			return service.submitPhone(p, idOf(id), body.phone_number)
		}),
		none,
	)
	app.post(
		`${BASE}/:id/code/`,
		guarded(async (p, request, id) => {
			const body = checkBody(rest.code, await readJsonObject(request))
			const userbotId = idOf(id)
			return guessing(p, userbotId, () => service.submitCode(p, userbotId, body.code))
		}),
		none,
	)
	app.post(
		`${BASE}/:id/password/`,
		guarded(async (p, request, id) => {
			const body = checkBody(rest.password, await readJsonObject(request))
			const userbotId = idOf(id)
			return guessing(p, userbotId, () => service.submitPassword(p, userbotId, body.password))
		}),
		none,
	)
	app.post(
		`${BASE}/:id/register/`,
		guarded(async (p, request, id) => {
			const body = checkBody(rest.registration, await readJsonObject(request))
			return service.submitRegistration(p, idOf(id), body.first_name, body.last_name)
		}),
		none,
	)
	app.post(
		`${BASE}/:id/qr/`,
		guarded((p, _r, id) => service.requestQr(p, idOf(id))),
		none,
	)
	app.post(
		`${BASE}/:id/files/`,
		guarded(async (p, request, id) => {
			const userbotId = idOf(id)
			await service.get(p, userbotId)
			const type = request.headers.get('content-type') ?? ''
			if (!type.toLowerCase().startsWith('multipart/form-data')) {
				// DRF quotes the client's Content-Type here; nothing a client sent is echoed back.
				throw new HttpError(415, { detail: 'Unsupported media type: send multipart/form-data.' })
			}
			const max = ctx.config.uploadMaxBytes
			const length = Number(request.headers.get('content-length') ?? '0')
			if (length > max + MULTIPART_OVERHEAD) throw tooLarge(max)
			let form: Awaited<ReturnType<Request['formData']>>
			try {
				form = await request.formData()
			} catch {
				throw badRequest({
					file: ['The submitted data was not a file. Check the encoding type on the form.'],
				})
			}
			const file = form.get('file')
			if (!(file instanceof File)) throw badRequest({ file: ['No file was submitted.'] })
			return created(await service.upload(p, userbotId, file))
		}),
		none,
	)
	// Files out (docs/read-side.md#files-out): a file of the account by TDLib's id, never by a path.
	app.get(`${BASE}/:id/files/:file_id`, async ({ request, params }) => {
		const p = await principalOf(request)
		try {
			const userbotId = idOf(params.id)
			await service.get(p, userbotId)
			const fileId = fileIdOf(params.file_id)
			if (fileId === undefined) throw fileErrors.notFound()
			const outcome = await service.file(p, userbotId, fileId)
			return outcome.ready ? fileResponse(outcome, request) : pendingResponse(outcome)
		} catch (err) {
			throw toHttp(err)
		}
	})
	// The userbot's proxy (docs/operator.md#userbot-proxies): one per userbot, replaced whole by PUT.
	app.put(
		`${BASE}/:id/proxy/`,
		guarded(async (p, request, id, client) => {
			const settings = parseProxyBody(await readJsonObject(request))
			return proxies.set(p, idOf(id), settings, client)
		}),
		none,
	)
	app.delete(
		`${BASE}/:id/proxy/`,
		guarded(async (p, _r, id, client) => {
			await proxies.remove(p, idOf(id), client)
			return new Response(null, { status: 204 })
		}),
		none,
	)
	app.post(
		`${BASE}/:id/proxy/check/`,
		guarded((p, _r, id) => proxies.check(p, idOf(id))),
		none,
	)
	// A known path with a method it does not take: 405 with Allow, as Django REST framework answers.
	answerOtherMethods(app)
	return app
}
