import { isIP } from 'node:net'
import {
	badRequest,
	proxySecretFault,
	type TdProxy,
	TEXT_FAULT_MESSAGES,
	textFault,
} from 'userbot-gateway/plugin'

/**
 * A userbot's proxy as REST takes and shows it (docs/operator.md#userbot-proxies): checked field by
 * field, errors worded as Django REST framework words them and never quoting what was sent.
 * The password (SOCKS5, HTTP) or secret (MTProto) is kept apart from the rest: it is stored
 * sealed and never shown again.
 */
export type ProxyKind = 'socks5' | 'http' | 'mtproto'

/** What may be shown and stored in clear. */
export interface ProxyPublic {
	type: ProxyKind
	server: string
	port: number
	/** SOCKS5 and HTTP; '' when none. */
	username?: string
	/** HTTP only: the proxy takes plain HTTP requests, no CONNECT. */
	http_only?: boolean
}

/** What is sealed: one of them, by type. */
export interface ProxyHidden {
	password?: string
	secret?: string
}

export interface ProxySettings {
	shown: ProxyPublic
	hidden: ProxyHidden
}

const KINDS: readonly ProxyKind[] = ['socks5', 'http', 'mtproto']
const FIELDS: Record<ProxyKind, readonly string[]> = {
	socks5: ['type', 'server', 'port', 'username', 'password'],
	http: ['type', 'server', 'port', 'username', 'password', 'http_only'],
	mtproto: ['type', 'server', 'port', 'secret'],
}
/** RFC 1929 gives a SOCKS5 user name and password one length byte each. */
const MAX_CREDENTIAL_BYTES = 255
const MAX_SECRET = 512
const LABEL = /^(?!-)[A-Za-z0-9-]{1,63}(?<!-)$/

/** A host name of RFC 1123 labels, or an IPv4 or IPv6 address (no brackets, no port, no path). */
export function isHost(server: string): boolean {
	if (isIP(server) !== 0) return true
	if (server.length > 253) return false
	const name = server.endsWith('.') ? server.slice(0, -1) : server
	const labels = name.split('.')
	// All digits and dots is an IPv4 address or nothing: `1.2.3.4.5` is not a name.
	if (labels.every((l) => /^\d+$/.test(l))) return false
	return labels.every((l) => LABEL.test(l))
}

const REQUIRED = 'This field is required.'
const STRING = 'Not a valid string.'

/** Checks the body of `PUT /api/userbots/{id}/proxy/`; throws a 400 with every field's error. */
export function parseProxyBody(body: Record<string, unknown>): ProxySettings {
	const errors: Record<string, string[]> = {}
	const add = (field: string, message: string) => {
		errors[field] = [message]
	}
	const type = body.type
	if (type === undefined || type === null) add('type', REQUIRED)
	else if (typeof type !== 'string' || !KINDS.includes(type as ProxyKind))
		add('type', 'Select a valid choice. That choice is not one of the available choices.')
	const kind = errors.type ? undefined : (type as ProxyKind)

	const server = body.server
	if (server === undefined || server === null) add('server', REQUIRED)
	else if (typeof server !== 'string') add('server', STRING)
	else if (!isHost(server)) add('server', 'Enter a valid host name or IP address.')

	const port = body.port
	if (port === undefined || port === null) add('port', REQUIRED)
	else if (typeof port !== 'number' || !Number.isInteger(port)) add('port', 'A valid integer is required.')
	else if (port < 1) add('port', 'Ensure this value is greater than or equal to 1.')
	else if (port > 65535) add('port', 'Ensure this value is less than or equal to 65535.')

	if (kind) {
		for (const field of Object.keys(body))
			if (!FIELDS[kind].includes(field)) add(field, 'This field is not allowed for this type of proxy.')
		for (const field of ['username', 'password'] as const) {
			const value = body[field]
			if (value === undefined || value === null || errors[field]) continue
			if (typeof value !== 'string') add(field, STRING)
			else if (Buffer.byteLength(value) > MAX_CREDENTIAL_BYTES)
				add(field, `Ensure this field has no more than ${MAX_CREDENTIAL_BYTES} bytes.`)
			else if (textFault(value)) add(field, TEXT_FAULT_MESSAGES[textFault(value) ?? 'control'])
		}
		if (body.http_only !== undefined && !errors.http_only && typeof body.http_only !== 'boolean')
			add('http_only', 'Must be a valid boolean.')
		if (kind === 'mtproto' && !errors.secret) {
			const secret = body.secret
			if (secret === undefined || secret === null || secret === '') add('secret', REQUIRED)
			else if (typeof secret !== 'string') add('secret', STRING)
			else if (secret.length > MAX_SECRET || proxySecretFault(secret) !== null)
				add('secret', 'Enter a valid MTProto proxy secret (hexadecimal or base64url).')
		}
	}
	if (Object.keys(errors).length > 0 || !kind) throw badRequest(errors)
	const shown: ProxyPublic = { type: kind, server: server as string, port: port as number }
	if (kind === 'mtproto') return { shown, hidden: { secret: body.secret as string } }
	shown.username = (body.username as string | undefined) ?? ''
	if (kind === 'http') shown.http_only = (body.http_only as boolean | undefined) ?? false
	const password = (body.password as string | undefined) ?? ''
	return { shown, hidden: password === '' ? {} : { password } }
}

/** The proxy as TDLib takes it. */
export function toTdProxy({ shown, hidden }: ProxySettings): TdProxy {
	const { server, port } = shown
	const username = shown.username ?? ''
	const password = hidden.password ?? ''
	switch (shown.type) {
		case 'socks5':
			return { server, port, type: { _: 'proxyTypeSocks5', username, password } }
		case 'http':
			return {
				server,
				port,
				type: { _: 'proxyTypeHttp', username, password, http_only: shown.http_only ?? false },
			}
		case 'mtproto':
			return { server, port, type: { _: 'proxyTypeMtproto', secret: hidden.secret ?? '' } }
	}
}

/** The last health check: TDLib's round trip through the proxy, or why there was none. */
export type ProxyCheck =
	| { ok: true; latency_ms: number; checked_at: string }
	| { ok: false; error: string; checked_at: string }

export interface ProxyView extends ProxyPublic {
	/** SOCKS5 and HTTP: a password is stored (it is never shown). */
	has_password?: boolean
	check: ProxyCheck | null
}

/** The view of the stored columns; null without a proxy. */
export function proxyView(
	stored: string | null,
	sealed: string | null,
	check: string | null,
): ProxyView | null {
	if (stored === null) return null
	const shown = JSON.parse(stored) as ProxyPublic
	const view: ProxyView = { ...shown, check: check === null ? null : (JSON.parse(check) as ProxyCheck) }
	if (shown.type !== 'mtproto') view.has_password = sealed !== null
	return view
}
