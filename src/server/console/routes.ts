import { Elysia } from 'elysia'
import type { Logger } from '../../common/util/logger'
import { textAnswer } from '../http/answers'
import { PUBLIC_READ, policyHook } from '../policy/entry'
import { type ConsoleAssets, consoleAssets } from './bundle'

/**
 * The web console (docs/development.md#web-console): one HTML page at `/` and at `/reset-password` (where
 * family A's reset e-mail points), its script and its style sheet, all from this server. The page runs no
 * inline script and loads nothing from elsewhere, and its Content-Security-Policy says so: a string that
 * slipped into the page as HTML still could not run.
 */
export interface ConsoleOptions {
	/** Which login forms to offer: family A (`/accounts/`) and family B (`/api/accounts/`). */
	familyA: boolean
	familyB: boolean
	/** The Telegram backend is the emulator: the console shows its test numbers on the log-in step. */
	emulator?: boolean
	log: Logger
}

export const CONSOLE_CSP = [
	"default-src 'none'",
	"script-src 'self'",
	"style-src 'self'",
	// The QR code is drawn into a data: URL.
	"img-src 'self' data:",
	// 'self' covers the page's own ws:// or wss:// origin (CSP 3).
	"connect-src 'self'",
	"form-action 'self'",
	"base-uri 'none'",
	"frame-ancestors 'none'",
].join('; ')

const COMMON = {
	'x-content-type-options': 'nosniff',
	'referrer-policy': 'no-referrer',
	'x-frame-options': 'DENY',
}

function page(opts: ConsoleOptions): string {
	const families = [opts.familyA ? 'a' : '', opts.familyB ? 'b' : ''].filter(Boolean).join(' ')
	return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="ubg-families" content="${families}">
<meta name="ubg-emulator" content="${opts.emulator ? 'true' : 'false'}">
<title>Userbot gateway</title>
<link rel="stylesheet" href="/console/app.css">
<script type="module" src="/console/app.js"></script>
</head>
<body><noscript>The console needs JavaScript.</noscript><div id="app"></div></body>
</html>
`
}

export function consoleRoutes(opts: ConsoleOptions) {
	const html = page(opts)
	// Built on the first request, once per app: apps that nobody opens in a browser never pay for it.
	let assets: Promise<ConsoleAssets> | undefined
	const htmlResponse = () =>
		new Response(html, {
			headers: {
				...COMMON,
				'content-type': 'text/html; charset=utf-8',
				'content-security-policy': CONSOLE_CSP,
				'cache-control': 'no-store',
			},
		})
	const asset = (pick: (a: ConsoleAssets) => string, type: string) => async () => {
		assets ??= consoleAssets()
		try {
			const text = pick(await assets)
			return new Response(text, {
				headers: { ...COMMON, 'content-type': `${type}; charset=utf-8`, 'cache-control': 'no-cache' },
			})
		} catch (err) {
			// Asked again, it is built again: a failure is not kept.
			assets = undefined
			opts.log.error('console unavailable', { error: err instanceof Error ? err : String(err) })
			return new Response('console unavailable', { status: 503, headers: COMMON })
		}
	}
	return new Elysia({ name: 'console' })
		.get('/', htmlResponse, pageRoute('getConsolePage', 'The web console (HTML)'))
		.get(
			'/reset-password',
			htmlResponse,
			pageRoute('getResetPasswordPage', "The web console's page for an e-mailed reset link (HTML)"),
		)
		.get(
			'/console/app.js',
			asset((a) => a.script, 'text/javascript'),
			partRoute('getConsoleScript', "The web console's script", 'text/javascript', 'The script'),
		)
		.get(
			'/console/app.css',
			asset((a) => a.style, 'text/css'),
			partRoute('getConsoleStyleSheet', "The web console's style sheet", 'text/css', 'The style sheet'),
		)
}

/** A page of the console, public, as the OpenAPI document describes it. */
const pageRoute = (operationId: string, summary: string) =>
	policyHook(PUBLIC_READ, {
		operationId,
		summary,
		tags: ['console'],
		responses: { '200': textAnswer('text/html', "The console's page") },
	})

/** The console's script or style sheet: 503 when its bundle could not be built. */
const partRoute = (operationId: string, summary: string, type: string, what: string) =>
	policyHook(PUBLIC_READ, {
		operationId,
		summary,
		tags: ['console'],
		responses: {
			'200': textAnswer(type, what),
			'503': textAnswer('text/plain', 'The console could not be built'),
		},
	})
