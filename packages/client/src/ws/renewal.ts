const RENEW_BEFORE_MS = 30_000

/** Renews the socket's credential in band before the token in use expires (a token function gives the fresh one). */
export interface Renewal {
	/** Plans the renewal of `token` (replacing any planned one); nothing when it has no `exp`. */
	schedule(token: string | undefined): void
	cancel(): void
}

export function createRenewal(renew: () => Promise<unknown>): Renewal {
	let timer: ReturnType<typeof setTimeout> | undefined
	return {
		schedule(token) {
			clearTimeout(timer)
			if (!token) return
			const exp = jwtExpiry(token)
			if (exp === undefined) return
			const wait = Math.max(1000, exp * 1000 - Date.now() - RENEW_BEFORE_MS)
			timer = setTimeout(() => {
				renew().catch(() => {})
			}, wait)
		},
		cancel() {
			clearTimeout(timer)
		},
	}
}

/** The `exp` claim of a JWT, without checking it (the server does). */
function jwtExpiry(jwt: string): number | undefined {
	const part = jwt.split('.')[1]
	if (!part) return undefined
	try {
		const json = atob(part.replace(/-/g, '+').replace(/_/g, '/'))
		const exp = (JSON.parse(json) as { exp?: unknown }).exp
		return typeof exp === 'number' ? exp : undefined
	} catch {
		return undefined
	}
}
