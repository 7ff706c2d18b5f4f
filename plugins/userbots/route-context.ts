import { and, eq, isNull } from 'drizzle-orm'
import {
	type AppContext,
	badRequest,
	type ErrorBody,
	HttpError,
	type Locators,
	notFound,
	type RestRoute,
	userbot,
} from 'userbot-gateway/plugin'
import { UserbotError } from './lifecycle/errors'
import type { ProxyControl } from './lifecycle/proxy-control'
import { type ProxySettings, parseProxyBody } from './lifecycle/proxy-settings'
import type { UserbotService } from './lifecycle/service'
import { tooLarge } from './lifecycle/uploads'

/**
 * What the userbot routes (./routes.ts) run on: their context, where a userbot is found for their
 * guard (docs/policy.md), the lifecycle's refusals as HTTP answers, and the upload's multipart form,
 * which its handler reads itself.
 */
export interface Userbots {
	ctx: AppContext
	service: UserbotService
	proxies: ProxyControl
}

/** Multipart framing around the file: boundaries and part headers. */
const MULTIPART_OVERHEAD = 64 * 1024

/** The lifecycle's refusals (`UserbotError`) as HTTP answers. */
function toHttp(err: unknown): unknown {
	if (err instanceof UserbotError) {
		return new HttpError(
			err.status,
			err.code ? { detail: err.detail, code: err.code } : { detail: err.detail },
		)
	}
	return err
}

const answered = async <T>(step: () => T | Promise<T>): Promise<T> => {
	try {
		return await step()
	} catch (err) {
		throw toHttp(err)
	}
}

/**
 * A userbot by its id, and the company it belongs to: its row, while not marked deleted. (Not the
 * gateway's directory, which forgets a userbot as its delete begins: a DELETE whose last write
 * failed must still reach it to finish, docs/rest.md#rest-userbots.)
 */
export const userbotLocators = (ctx: AppContext): Locators => ({
	userbot: async (id) => {
		const [row] = await ctx.db
			.select({ companyId: userbot.companyId })
			.from(userbot)
			.where(and(eq(userbot.id, id), isNull(userbot.deletedAt)))
		return row ? { companyId: row.companyId, userbots: [id] } : null
	},
})

export const idOf = (raw: string | undefined): number => {
	if (raw === undefined || !/^\d{1,15}$/.test(raw)) throw notFound()
	return Number(raw)
}

/**
 * The optional `proxy` of a new userbot, checked as `PUT .../proxy/` checks it; its field errors
 * nest under `proxy`, as Django REST framework nests a serializer's.
 */
export function proxyOfCreate(raw: unknown): ProxySettings | undefined {
	if (raw === undefined || raw === null) return undefined
	try {
		return parseProxyBody(raw as Record<string, unknown>)
	} catch (err) {
		if (err instanceof HttpError) throw new HttpError(400, { proxy: err.body } as unknown as ErrorBody)
		throw err
	}
}

type Input = { server: Parameters<AppContext['auth']['clientAddress']>[0]; request: Request }
export const clientOf = ({ ctx }: Userbots, input: Input) =>
	ctx.auth.clientAddress(input.server, input.request)
export const created = (body: unknown) => Response.json(body, { status: 201 })
export const deleted = () => new Response(null, { status: 204 })

/** The multipart upload's `file` part: 415 for another type, 413 past the limit, 400 without a file. */
export async function uploadedFile({ ctx }: Userbots, request: Request): Promise<File> {
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
		throw badRequest({ file: ['The submitted data was not a file. Check the encoding type on the form.'] })
	}
	const file = form.get('file')
	if (!(file instanceof File)) throw badRequest({ file: ['No file was submitted.'] })
	return file
}

/** Definitions whose handler answers the lifecycle's refusals as HTTP (`toHttp`). */
export function lifecycleRoutes(routes: readonly RestRoute<Userbots>[]): RestRoute<Userbots>[] {
	return routes.map((route) => ({
		...route,
		handle: (u: Userbots, input) => answered(() => route.handle(u, input)),
	}))
}
