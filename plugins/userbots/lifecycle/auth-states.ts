import { STATES } from 'userbot-gateway/plugin'
import { userbotErrors } from './errors'

/** What each log-in step may be sent in, by TDLib 1.8.65's authorization states. */
export { STATES }

/** States this service cannot answer, with a phrase for the error that says so. */
const UNSUPPORTED: Record<string, string> = {
	[STATES.premium]: 'a Telegram Premium purchase',
	[STATES.emailAddress]: 'a login email address',
	[STATES.emailCode]: 'a code sent by email',
}

/**
 * Where TDLib takes a phone number or a QR request: its own state, or any later log-in step (to
 * start over with another number), exactly as the documentation of `setAuthenticationPhoneNumber`
 * and `requestQrCodeAuthentication` lists them. Not while a QR code waits for its confirmation:
 * TDLib answers `Call to ... unexpected` there (the QR route answers the link it already has).
 */
const RESTARTABLE = new Set<string>([
	STATES.phone,
	STATES.premium,
	STATES.emailAddress,
	STATES.emailCode,
	STATES.code,
	STATES.registration,
	STATES.password,
])

export type Step = 'phone' | 'code' | 'password' | 'qr' | 'registration'

/**
 * The one TDLib method each log-in step sends, under the label `userbots:<step>`; the check of a
 * logged-in account (`userbots:ready`); the files route's four (`userbots:file`, `userbots:download`, `userbots:evict`: the download cache's `deleteFile`, `userbots:read`: `readFilePart` of a file on another host).
 * A shard on the bus allows these labels these methods only.
 */
export const LIFECYCLE_METHODS: Readonly<
	Record<`userbots:${Step | 'ready' | 'file' | 'download' | 'evict' | 'read' | 'proxy'}`, string>
> = {
	'userbots:phone': 'setAuthenticationPhoneNumber',
	'userbots:code': 'checkAuthenticationCode',
	'userbots:password': 'checkAuthenticationPassword',
	'userbots:qr': 'requestQrCodeAuthentication',
	'userbots:registration': 'registerUser',
	'userbots:ready': 'getMe',
	'userbots:file': 'getFile',
	'userbots:download': 'downloadFile',
	'userbots:evict': 'deleteFile',
	// A file kept by a shard on another host, read through TDLib in bounded parts (docs/read-side.md).
	'userbots:read': 'readFilePart',
	// The proxy's health check (plugins/userbots/lifecycle/proxy-control.ts), always with the proxy itself: a
	// `pingProxy` without one would dial Telegram directly, whatever the network type.
	'userbots:proxy': 'pingProxy',
}

const WAITING_FOR: Record<Step, string> = {
	phone: 'a phone number',
	code: 'a code',
	password: 'a password',
	qr: 'a log-in (phone number or QR code)',
	registration: 'the name of a new Telegram account',
}

const EXPECTED: Record<Exclude<Step, 'phone' | 'qr'>, string> = {
	code: STATES.code,
	password: STATES.password,
	registration: STATES.registration,
}

/** Throws the error that explains why `step` cannot be taken in `state`, or returns when it can. */
export function assertStepAllowed(step: Step, state: string): void {
	if (step === 'phone' || step === 'qr') {
		if (RESTARTABLE.has(state)) return
	} else if (state === EXPECTED[step]) {
		return
	}
	const unsupported = UNSUPPORTED[state]
	if (unsupported) throw userbotErrors.unsupported(unsupported, state)
	throw userbotErrors.wrongState(WAITING_FOR[step], state)
}

const isRecord = (x: unknown): x is Record<string, unknown> =>
	typeof x === 'object' && x !== null && !Array.isArray(x)

/**
 * The parts of a state's TDLib object a client may see to render the next step: never a code, a
 * password or a token beyond the QR link, which is the very thing to show.
 */
export function publicDetail(
	state: string,
	detail: Record<string, unknown> | undefined,
): Record<string, unknown> {
	if (!detail) return {}
	const src = isRecord(detail.authorization_state) ? detail.authorization_state : detail
	const out: Record<string, unknown> = {}
	if (state === STATES.otherDevice && typeof src.link === 'string') out.link = src.link
	if (state === STATES.password) {
		if (typeof src.password_hint === 'string') out.password_hint = src.password_hint
		if (typeof src.has_recovery_email_address === 'boolean')
			out.has_recovery_email_address = src.has_recovery_email_address
	}
	if (state === STATES.code) {
		// TDLib's own shape (`code_info`) or the supervisor's flattened one.
		const info = isRecord(src.code_info) ? src.code_info : {}
		const type = isRecord(info.type) ? info.type : {}
		const phone = info.phone_number ?? src.phone_number
		const codeType = type._ ?? src.code_type
		const length = type.length ?? src.code_length
		if (typeof phone === 'string') out.phone_number = phone
		if (typeof codeType === 'string') out.code_type = codeType
		if (typeof length === 'number') out.code_length = length
		if (typeof info.timeout === 'number') out.timeout = info.timeout
	}
	if (state === STATES.emailCode && isRecord(src.code_info)) {
		const info = src.code_info
		if (typeof info.email_address_pattern === 'string') out.email_address_pattern = info.email_address_pattern
		if (typeof info.length === 'number') out.code_length = info.length
	}
	if (UNSUPPORTED[state]) out.supported = false
	return out
}

/** The phone number TDLib reports while it waits for the code, if any. */
export function phoneFromDetail(detail: Record<string, unknown> | undefined): string | null {
	const d = publicDetail(STATES.code, detail)
	return typeof d.phone_number === 'string' ? d.phone_number : null
}
