import type { Config } from '../config'
import { CSRF_COOKIE, SESSION_COOKIE } from './cookies'

/**
 * JSON responses with Set-Cookie lines, shared by both login families (`/accounts/`, `/api/accounts/`):
 * their routes build their own Response for full control, with the same cookies and the same idea of
 * the caller's address.
 */
export const JSON_HEADERS = { 'content-type': 'application/json;charset=utf-8' } as const

export function json(body: unknown, status = 200, cookies: readonly string[] = []): Response {
	const headers = new Headers(JSON_HEADERS)
	for (const c of cookies) headers.append('set-cookie', c)
	return new Response(JSON.stringify(body), { status, headers })
}

const attributes = (config: Config, maxAge: number) =>
	`Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${config.cookieSecure ? '; Secure' : ''}`

export const sessionCookies = (config: Config, sessionId: string, csrfToken: string) => [
	`${SESSION_COOKIE}=${sessionId}; ${attributes(config, config.sessionLifetime)}`,
	`${CSRF_COOKIE}=${csrfToken}; ${attributes(config, config.sessionLifetime)}`,
]

export const clearedCookies = (config: Config) => [
	`${SESSION_COOKIE}=; ${attributes(config, 0)}; Expires=Thu, 01 Jan 1970 00:00:00 GMT`,
	`${CSRF_COOKIE}=; ${attributes(config, 0)}; Expires=Thu, 01 Jan 1970 00:00:00 GMT`,
]
