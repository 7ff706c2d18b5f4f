import type { Config } from '../config'
import { safeEqual } from './crypto'
import { MESSAGES } from './errors'

/**
 * CSRF for cookie-authenticated requests (docs/rest.md#rest-accounts-family-a): refused when the browser says
 * the request is cross-site; otherwise accepted when its Origin (or Referer's origin) is the server's own or
 * an allowed one, or when it carries `X-CSRFToken` equal to the session's token. Returns the refusal message,
 * or null when the request passes.
 */
export function createCsrfCheck(config: Config) {
	// publicUrl is read at request time: tests set it after the server has its port.
	let lastPublicUrl = ''
	let trusted = new Set<string>()
	const trustedOrigins = () => {
		if (config.publicUrl !== lastPublicUrl) {
			lastPublicUrl = config.publicUrl
			trusted = new Set(
				[originOf(config.publicUrl), ...config.allowedOrigins.map(originOf)].filter((o) => o !== null),
			)
		}
		return trusted
	}

	return function checkCsrf(request: Request, csrfToken: string): string | null {
		const headers = request.headers
		if (headers.get('sec-fetch-site') === 'cross-site') return MESSAGES.csrfCrossSite
		const origin = headers.get('origin') ?? originOf(headers.get('referer'))
		if (origin && trustedOrigins().has(origin)) return null
		const token = headers.get('x-csrftoken')
		if (token && safeEqual(token, csrfToken)) return null
		return origin ? MESSAGES.csrfOrigin : MESSAGES.csrfMissing
	}
}

function originOf(url: string | null): string | null {
	if (!url) return null
	try {
		const origin = new URL(url).origin
		return origin === 'null' ? null : origin
	} catch {
		return null
	}
}

export const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])
