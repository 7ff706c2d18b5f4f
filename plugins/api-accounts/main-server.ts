import type { Logger, MainTokens } from 'userbot-gateway/plugin'
import { type MainProfile, readMainProfile } from './main-profile'

/**
 * The main server, reached through its family A endpoints
 * (docs/rest.md#rest-login-against-a-main-server-family-b): `POST accounts/token/`,
 * `GET accounts/me/` (bearer) and `POST accounts/token/blacklist/`. Every call has a deadline and
 * fails closed: no answer in time, no connection, a redirect, a 5xx, or a body that is not what
 * family A sends all become `unavailable`, logged here once with the step and the reason, never with
 * a password, a token or a body.
 */
export type MainFailure =
	| { kind: 'unavailable' }
	| { kind: 'bad_credentials' }
	/** The password was right, but the main's access rules refuse the account now (its work status). */
	| { kind: 'status_not_allowed' }
	| { kind: 'throttled'; retryAfter: number | null }

export class MainServerError extends Error {
	override name = 'MainServerError'
	constructor(readonly failure: MainFailure) {
		super(`main server: ${failure.kind}`)
	}
}

export interface MainServer {
	/** MAIN_SERVER_TIMEOUT: how long a login waits for the main server (token/ and me/ together). */
	readonly timeoutMs: number
	/** A token pair for the credentials, within `signal`'s deadline. */
	obtainPair(email: string, password: string, signal: AbortSignal): Promise<MainTokens>
	/** The account's profile, checked field by field. */
	profile(access: string, signal: AbortSignal): Promise<MainProfile>
	/**
	 * Ends the main server's session of that refresh token, within its own deadline. `ended` also
	 * when the main says the token was already dead (expired, rotated, revoked); `unavailable` when
	 * it could not be told. Never throws.
	 */
	blacklist(refresh: string): Promise<'ended' | 'unavailable'>
}

export interface MainServerOptions {
	url: string
	timeoutMs: number
	log: Logger
}

/** Family A's answers are small; anything larger is not one of them. */
const MAX_ANSWER_BYTES = 64 * 1024
/** A JWT as family A signs it: base64url parts and dots. */
const TOKEN = /^[\w-]+\.[\w-]+\.[\w-]+$/
const MAX_TOKEN_LENGTH = 4096
const MAX_RETRY_AFTER = 86_400

class Unavailable extends Error {
	constructor(readonly reason: string) {
		super(reason)
	}
}

export function createMainServer(opts: MainServerOptions): MainServer {
	const base = opts.url.endsWith('/') ? opts.url : `${opts.url}/`
	const { log } = opts

	const send = async (path: string, init: RequestInit, signal: AbortSignal): Promise<Response> => {
		try {
			return await fetch(new URL(path, base), { ...init, redirect: 'manual', signal })
		} catch {
			throw new Unavailable(signal.aborted ? 'timeout' : 'unreachable')
		}
	}

	const post = (path: string, body: unknown, signal: AbortSignal) =>
		send(
			path,
			{
				method: 'POST',
				headers: { 'content-type': 'application/json', accept: 'application/json' },
				body: JSON.stringify(body),
			},
			signal,
		)

	/** Runs one step; an `Unavailable` is logged and becomes the `unavailable` failure. */
	const step = async <T>(name: string, run: () => Promise<T>): Promise<T> => {
		try {
			return await run()
		} catch (err) {
			if (!(err instanceof Unavailable)) throw err
			log.warn('main server unavailable', { step: name, reason: err.reason })
			throw new MainServerError({ kind: 'unavailable' })
		}
	}

	return {
		timeoutMs: opts.timeoutMs,
		obtainPair: (email, password, signal) =>
			step('token', async () => {
				return tokenPair(await post('accounts/token/', { email, password }, signal), signal)
			}),
		profile: (access, signal) =>
			step('me', async () => {
				const res = await send(
					'accounts/me/',
					{ headers: { authorization: `Bearer ${access}`, accept: 'application/json' } },
					signal,
				)
				if (res.status !== 200) throw await unexpected(res)
				const profile = readMainProfile(await readJson(res, signal))
				if ('problem' in profile) throw new Unavailable(`bad ${profile.problem}`)
				return profile
			}),
		async blacklist(refresh) {
			try {
				return await step('blacklist', async () => {
					const res = await post(
						'accounts/token/blacklist/',
						{ refresh },
						AbortSignal.timeout(opts.timeoutMs),
					)
					// 401: the token was dead already there (expired, rotated, revoked): nothing left to end.
					if (res.status === 200 || res.status === 401) {
						await discard(res)
						return 'ended' as const
					}
					throw await unexpected(res)
				})
			} catch {
				return 'unavailable'
			}
		},
	}
}

/** The JSON body of a 200, read within the deadline and a size cap. */
async function readJson(res: Response, signal: AbortSignal): Promise<unknown> {
	if (!/^application\/json\s*(;|$)/i.test(res.headers.get('content-type') ?? '')) {
		await discard(res)
		throw new Unavailable('answer is not JSON')
	}
	const reader = res.body?.getReader()
	if (!reader) throw new Unavailable('empty answer')
	const chunks: Uint8Array[] = []
	let size = 0
	const aborted = new Promise<never>((_, reject) => {
		const stop = () => reject(new Unavailable('timeout'))
		if (signal.aborted) stop()
		else signal.addEventListener('abort', stop, { once: true })
	})
	aborted.catch(() => {})
	try {
		for (;;) {
			const { done, value } = await Promise.race([reader.read(), aborted])
			if (done) break
			size += value.byteLength
			if (size > MAX_ANSWER_BYTES) throw new Unavailable('answer too large')
			chunks.push(value)
		}
	} catch (err) {
		await reader.cancel().catch(() => {})
		throw err instanceof Unavailable ? err : new Unavailable(signal.aborted ? 'timeout' : 'unreachable')
	}
	try {
		return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks, size)))
	} catch {
		throw new Unavailable('answer is not JSON')
	}
}

async function unexpected(res: Response): Promise<Unavailable> {
	await discard(res)
	return new Unavailable(`status ${res.status}`)
}

/** The main server's answer to a token request: the pair, or why there is none. */
async function tokenPair(res: Response, signal: AbortSignal): Promise<{ access: string; refresh: string }> {
	if (res.status === 401) {
		await discard(res)
		throw new MainServerError({ kind: 'bad_credentials' })
	}
	if (res.status === 429) {
		await discard(res)
		throw new MainServerError({ kind: 'throttled', retryAfter: retryAfterOf(res) })
	}
	// Family A gives a member whose work status does not allow work no token pair.
	if (res.status === 403) {
		const refusal = await readJson(res, signal)
		if (codeOf(refusal) === 'status_not_allowed') {
			throw new MainServerError({ kind: 'status_not_allowed' })
		}
		throw new Unavailable('status 403')
	}
	if (res.status !== 200) throw await unexpected(res)
	const body = await readJson(res, signal)
	const access = tokenIn(body, 'access')
	const refresh = tokenIn(body, 'refresh')
	if (access === null || refresh === null) throw new Unavailable('answer carries no token pair')
	return { access, refresh }
}

const discard = (res: Response) => res.body?.cancel().catch(() => {}) ?? Promise.resolve()

function codeOf(body: unknown): unknown {
	return typeof body === 'object' && body !== null ? (body as Record<string, unknown>).code : undefined
}

function tokenIn(body: unknown, key: 'access' | 'refresh'): string | null {
	if (typeof body !== 'object' || body === null) return null
	const value: unknown = (body as Record<string, unknown>)[key]
	return typeof value === 'string' && value.length <= MAX_TOKEN_LENGTH && TOKEN.test(value) ? value : null
}

/** The main's Retry-After in whole seconds (1 to a day), else null. */
function retryAfterOf(res: Response): number | null {
	const header = res.headers.get('retry-after')?.trim() ?? ''
	if (!/^\d{1,6}$/.test(header)) return null
	return Math.min(Math.max(Number(header), 1), MAX_RETRY_AFTER)
}
