import type * as Td from 'tdlib-types'
import { SEED_USERS } from '../seed'
import { fail, type Handlers, OK, type Session } from '../session'

/**
 * Active sessions: the account's logged-in devices, one of them current; terminating and toggling
 * them, with the server's errors (docs/tdlib-mapping.md#sessions-and-privacy).
 *
 * Each account has two other devices, seeded when the account is first asked about (a phone app
 * and Telegram Web), and one session per authorization of an emulated client (`World.authorizations`,
 * the key its folder keeps), made when that client first reaches this domain: a client sees its own
 * as `is_current`, and other clients of the same account (other userbots) as further devices. A
 * session lives as long as its authorization, as on Telegram: a client that closes keeps it, one
 * that logs out ends it. Ids are random 64-bit values past 2^53, as Telegram's are, so that any
 * loss of precision on the way shows. Terminating a session that is another emulated client's ends
 * its authorization and logs that client out (now, or when it next starts), as Telegram does to a
 * device whose session ends.
 *
 * Telegram refuses to end other sessions from one younger than 24 hours
 * (`406 FRESH_RESET_AUTHORISATION_FORBIDDEN`). Every emulated log-in is fresh, so the emulator dates
 * a seeded account's sessions days back (they stand for devices long in use); an account registered
 * in the emulator is brand new, and its session is fresh.
 */

const DAY = 86_400

interface SessionRecord {
	id: string
	userId: number
	/** The authorization of the emulated client this session is; none for a seeded device. */
	clientKey?: string
	device: Td.SessionDeviceType['_']
	apiId: number
	applicationName: string
	applicationVersion: string
	isOfficial: boolean
	deviceModel: string
	platform: string
	systemVersion: string
	logInDate: number
	lastActiveDate: number
	ip: string
	location: string
	canAcceptCalls: boolean
	canAcceptSecretChats: boolean
}

interface SessionsState {
	byAccount: Map<number, SessionRecord[]>
}

const state = (s: Session) => s.world.store<SessionsState>('sessions', () => ({ byAccount: new Map() }))

/** A random 64-bit id in [2^61, 2^62): always past 2^53, always positive. */
function sessionId(): string {
	const [n] = crypto.getRandomValues(new BigUint64Array(1))
	return (BigInt.asUintN(61, n!) | (1n << 61n)).toString()
}

const isSeeded = (userId: number) => SEED_USERS.some((u) => u.id === userId)

function seededDevices(s: Session, userId: number): SessionRecord[] {
	const now = s.world.clock
	const device = { id: '', userId, canAcceptCalls: true, isOfficial: true }
	return [
		{
			...device,
			id: sessionId(),
			device: 'sessionDeviceTypeIphone',
			apiId: 8,
			applicationName: 'Telegram iOS',
			applicationVersion: '11.4',
			deviceModel: 'iPhone 15 Pro',
			platform: 'iOS',
			systemVersion: '18.1',
			logInDate: now - 200 * DAY,
			lastActiveDate: now - 3600,
			ip: '203.0.113.7',
			location: 'Amsterdam, Netherlands',
			canAcceptSecretChats: true,
		},
		{
			...device,
			id: sessionId(),
			device: 'sessionDeviceTypeChrome',
			apiId: 2496,
			applicationName: 'Telegram Web A',
			applicationVersion: '10.9.21',
			deviceModel: 'Chrome 131',
			platform: 'macOS',
			systemVersion: '',
			logInDate: now - 40 * DAY,
			lastActiveDate: now - 5 * DAY,
			ip: '198.51.100.23',
			location: 'Berlin, Germany',
			canAcceptSecretChats: false,
		},
	]
}

/** The account's sessions, without those of emulated clients whose authorization has ended since. */
function sessionsOf(s: Session, userId: number): SessionRecord[] {
	const { byAccount } = state(s)
	let list = byAccount.get(userId)
	if (!list) {
		list = seededDevices(s, userId)
		byAccount.set(userId, list)
	}
	const live = list.filter(
		(r) => r.clientKey === undefined || s.world.authorizations.get(r.clientKey)?.userId === userId,
	)
	if (live.length === list.length) return list
	byAccount.set(userId, live)
	return live
}

/** The calling client's own session, made the first time it asks. */
function ownSession(s: Session): SessionRecord {
	const list = sessionsOf(s, s.userId)
	const known = list.find((r) => r.clientKey === s.key)
	if (known) return known
	const fresh = !isSeeded(s.userId)
	const record: SessionRecord = {
		id: sessionId(),
		userId: s.userId,
		clientKey: s.key,
		device: 'sessionDeviceTypeLinux',
		apiId: 94575,
		applicationName: 'userbot-gateway',
		applicationVersion: '0.1.0',
		isOfficial: false,
		deviceModel: 'userbot-gateway',
		platform: 'Linux',
		systemVersion: '',
		logInDate: fresh ? s.world.now() : s.world.clock - 3 * DAY,
		lastActiveDate: s.world.clock,
		ip: '192.0.2.10',
		location: 'Frankfurt, Germany',
		canAcceptCalls: true,
		canAcceptSecretChats: true,
	}
	list.push(record)
	return record
}

function sessionObject(r: SessionRecord, current: boolean): Td.session {
	return {
		_: 'session',
		id: r.id,
		is_current: current,
		is_password_pending: false,
		is_unconfirmed: false,
		can_accept_secret_chats: r.canAcceptSecretChats,
		can_accept_calls: r.canAcceptCalls,
		device_type: { _: r.device },
		api_id: r.apiId,
		application_name: r.applicationName,
		application_version: r.applicationVersion,
		is_official_application: r.isOfficial,
		device_model: r.deviceModel,
		platform: r.platform,
		system_version: r.systemVersion,
		log_in_date: r.logInDate,
		last_active_date: r.lastActiveDate,
		ip_address: r.ip,
		location: r.location,
	}
}

/** TDLib's int64 as the one string Telegram would give for it. */
const idOf = (raw: string | number | undefined) => BigInt(raw ?? 0).toString()

/** The session `raw` of the caller's account (its own included), or the server's error for an unknown id. */
function sessionById(s: Session, raw: string | number | undefined): SessionRecord {
	const id = idOf(raw)
	return sessionsOf(s, s.userId).find((r) => r.id === id) ?? fail('HASH_INVALID')
}

/** Ends sessions of the caller's account: gone from the list, and their clients logged out. */
function end(s: Session, ended: SessionRecord[]) {
	const { byAccount } = state(s)
	const list = byAccount.get(s.userId) ?? []
	byAccount.set(
		s.userId,
		list.filter((r) => !ended.includes(r)),
	)
	for (const r of ended) if (r.clientKey !== undefined && r.clientKey !== s.key) s.world.revoke(r.clientKey)
}

function requireSettled(s: Session, own: SessionRecord) {
	if (s.world.clock - own.logInDate < DAY) fail('FRESH_RESET_AUTHORISATION_FORBIDDEN', 406)
}

export const sessionHandlers: Handlers = {
	getActiveSessions(s) {
		const own = ownSession(s)
		own.lastActiveDate = s.world.clock
		const others = sessionsOf(s, s.userId)
			.filter((r) => r !== own)
			.sort((a, b) => b.lastActiveDate - a.lastActiveDate)
		return {
			_: 'sessions',
			sessions: [sessionObject(own, true), ...others.map((r) => sessionObject(r, false))],
			inactive_session_ttl_days: 180,
		}
	},
	terminateSession(s, req) {
		const own = ownSession(s)
		requireSettled(s, own)
		const target = sessionById(s, req.session_id)
		// The current session is ended by logging out, never through this call.
		if (target === own) fail('HASH_INVALID')
		end(s, [target])
		return OK
	},
	terminateAllOtherSessions(s) {
		const own = ownSession(s)
		requireSettled(s, own)
		end(
			s,
			sessionsOf(s, s.userId).filter((r) => r !== own),
		)
		return OK
	},
	toggleSessionCanAcceptCalls(s, req) {
		ownSession(s)
		sessionById(s, req.session_id).canAcceptCalls = req.can_accept_calls ?? false
		return OK
	},
	toggleSessionCanAcceptSecretChats(s, req) {
		ownSession(s)
		sessionById(s, req.session_id).canAcceptSecretChats = req.can_accept_secret_chats ?? false
		return OK
	},
}
