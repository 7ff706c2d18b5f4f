import type { AnyElysia } from 'elysia'
import { PUBLIC_READ, policyHook } from '../policy/entry'

const JSON_HEADERS = { 'content-type': 'application/json;charset=utf-8' } as const

/**
 * DRF's answers for the methods a path does not serve: 405 `{"detail": "Method \"GET\" not
 * allowed."}` with an `Allow` header, and OPTIONS 200 with the view's metadata. Added after every
 * route is registered, from the routes themselves, so it cannot drift from them: a path's own
 * methods always win over the catch-all.
 */
export function answerOtherMethods(app: AnyElysia): void {
	const byPath = new Map<string, Set<string>>()
	for (const route of app.routes) {
		const methods = byPath.get(route.path) ?? new Set<string>()
		methods.add(route.method.toUpperCase())
		byPath.set(route.path, methods)
	}
	for (const [path, methods] of byPath) {
		if (methods.has('GET')) methods.add('HEAD')
		methods.add('OPTIONS')
		const allow = [...methods].join(', ')
		const metadata = JSON.stringify({
			name: viewName(path),
			description: '',
			renders: ['application/json'],
			parses: ['application/json'],
		})
		app.all(
			path,
			({ request }) => {
				const headers = { ...JSON_HEADERS, allow }
				if (request.method === 'OPTIONS') return new Response(metadata, { headers })
				const detail = `Method "${safeMethod(request.method)}" not allowed.`
				return new Response(JSON.stringify({ detail }), { status: 405, headers })
			},
			// A path's other methods answer the same to anyone, and nothing runs.
			policyHook(PUBLIC_READ),
		)
	}
}

/** `/accounts/token/refresh/` → `Token Refresh`, `/api/userbots/:id/qr/` → `Userbots Qr`, as DRF names a view. */
const viewName = (path: string) =>
	path
		.split('/')
		.filter((s) => s && s !== 'accounts' && s !== 'api' && !s.startsWith(':'))
		.join(' ')
		.replace(/[-_]/g, ' ')
		.replace(/\b\w/g, (c) => c.toUpperCase())

/** A method name is a token by HTTP's grammar; anything else is not quoted back. */
const safeMethod = (method: string) => (/^[A-Z]{1,20}$/.test(method) ? method : 'UNKNOWN')
