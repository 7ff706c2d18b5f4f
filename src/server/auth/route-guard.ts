import { then } from '../../common/util/then'
import { HttpError, notFound } from '../http/errors'
import type { RouteGuard } from '../http/rest-route'
import { can, type Decision, type Found } from '../policy/can'
import type { Finder, PolicyEntry, ResourceKind } from '../policy/entry'
import type { Principal } from '../policy/principal'
import type { CallerOutcome } from './authenticator'
import { MESSAGES } from './errors'

/**
 * The REST face of the policy (docs/policy.md): before a route's body is read, the caller and the
 * resources its path names go to `can`; after the body is checked, the userbots the body names. A
 * refusal is answered in REST's words (docs/rest.md#conventions): 401 with the authenticator's own
 * body, 403 `{"detail", "code"}` (`permission_denied`, `key_scope`, `status_not_allowed`,
 * `company_inactive`), 404 `Not found.` for what the caller does not reach, and 400 on the field for a
 * userbot in the body it does not reach, in the words a userbot that does not exist gets.
 */

/** A resource as its owner (the plugin that keeps it) finds it by id: its company and its userbots. */
export interface Located {
	companyId: number
	/** The userbots it names: a list, or `all` (every userbot of the company). */
	userbots?: readonly number[] | 'all'
}

/**
 * Finds a resource of one kind by the id a path parameter gives; null when there is none. It may
 * answer without a promise when memory knows (the Bot API face's userbot, from the directory).
 */
export type Locate = (id: number) => Located | null | Promise<Located | null>

/** How each kind a plugin's routes name is found; `userbot` also finds the userbots a body names. */
export type Locators = Partial<Record<ResourceKind, Locate>>

/** What the guard asks the authenticator: who the request's credential names, an API key included. */
export interface CallerSource {
	caller(request: Request): CallerOutcome | Promise<CallerOutcome>
	/** The caller a Bot API token names (an entry that finds by `token`, docs/bot-api.md). */
	botCaller?(request: Request, token: string): CallerOutcome | Promise<CallerOutcome>
}

const ID = /^\d{1,15}$/
const notAuthenticated = { detail: MESSAGES.notAuthenticated, code: 'not_authenticated' }
const FORBIDDEN: Readonly<
	Record<
		'status_not_allowed' | 'company_inactive' | 'key_scope' | 'permission_denied',
		{ detail: string; code: string }
	>
> = {
	status_not_allowed: { detail: MESSAGES.accessDenied, code: 'status_not_allowed' },
	company_inactive: { detail: MESSAGES.accessDenied, code: 'company_inactive' },
	key_scope: { detail: MESSAGES.permissionDenied, code: 'key_scope' },
	permission_denied: { detail: MESSAGES.permissionDenied, code: 'permission_denied' },
}

/** A refusal of `can`, as REST answers it; `outcome` is the caller's, whose 401 says why. */
export function refusalError(decision: Decision, outcome?: CallerOutcome): HttpError {
	if (decision.ok) throw new Error('an allowed decision is no refusal')
	const { refusal, finder } = decision
	if (refusal === 'unauthenticated')
		return outcome && !outcome.ok
			? new HttpError(outcome.status, outcome.body)
			: new HttpError(401, notAuthenticated)
	if (refusal === 'not_found')
		return finder?.from === 'body' ? new HttpError(400, { [finder.field]: [finder.unknown] }) : notFound()
	return new HttpError(403, FORBIDDEN[refusal])
}

const tokenFinder = (entry: PolicyEntry) =>
	(entry.find ?? []).find((f): f is Extract<Finder, { from: 'token' }> => f.from === 'token')
const bodyFinders = (entry: PolicyEntry) => (entry.find ?? []).filter((f) => f.from === 'body')
const paramFinders = (entry: PolicyEntry) =>
	(entry.find ?? []).filter((f): f is Extract<Finder, { from: 'param' }> => f.from === 'param')

/** Why the guard cannot decide an entry (a finder it has no locator for), or null. */
function uncovered(entry: PolicyEntry, locators: Locators): string | null {
	const kind = entry.resource
	if (paramFinders(entry).length > 0 && !locators[kind]) return `finds a ${kind} that its guard cannot locate`
	if (tokenFinder(entry) && !locators.userbot)
		return 'finds a userbot by its token, which its guard cannot locate'
	if (bodyFinders(entry).length > 0 && !locators.userbot)
		return 'finds userbots in its body, which its guard cannot locate'
	return null
}

/** An entry that locates nothing, for a caller known now: decided without waiting. */
function admitNow(outcome: CallerOutcome, entry: PolicyEntry): Principal | undefined {
	if (!outcome.ok && outcome.status !== 401) throw new HttpError(outcome.status, outcome.body)
	const principal = outcome.ok ? outcome.caller.principal : null
	const decision = can(principal, entry)
	if (!decision.ok) throw refusalError(decision, outcome)
	return principal ?? undefined
}

/** The userbots a body field names (an id, a list, or null for all), as one resource. */
async function inBody(
	locators: Locators,
	principal: Principal,
	finder: Finder,
	value: unknown,
): Promise<Found | null> {
	if (value === undefined) return null
	if (value === null) return { finder, companyId: principal.companyId, userbots: 'all' }
	const ids = (Array.isArray(value) ? value : [value]).filter((id): id is number => Number.isSafeInteger(id))
	const locate = locators.userbot
	const companies = await Promise.all(ids.map((id) => (locate ? locate(id) : Promise.resolve(null))))
	const every = companies.every((c) => c !== null && c.companyId === principal.companyId)
	return { finder, companyId: every ? principal.companyId : null, userbots: ids }
}

export function createRouteGuard(auth: CallerSource, locators: Locators = {}): RouteGuard {
	const locateBy = (kind: ResourceKind, finder: Finder, raw: string | undefined): Found | Promise<Found> => {
		const locate = locators[kind]
		if (raw === undefined || !ID.test(raw) || !locate) return { finder, companyId: null }
		return then(locate(Number(raw)), (found) => (found ? { finder, ...found } : { finder, companyId: null }))
	}

	const decide = async (outcome: CallerOutcome, entry: PolicyEntry, params: Record<string, string>) => {
		if (!outcome.ok && outcome.status !== 401) throw new HttpError(outcome.status, outcome.body)
		const principal = outcome.ok ? outcome.caller.principal : null
		// Nothing is looked up for a caller nobody vouches for.
		const found = principal
			? await Promise.all(paramFinders(entry).map((f) => locateBy(entry.resource, f, params[f.name])))
			: []
		const decision = can(principal, { ...entry, find: entry.find?.filter((f) => f.from !== 'body') }, found)
		if (!decision.ok) throw refusalError(decision, outcome)
		return principal ?? undefined
	}

	/**
	 * An entry that finds by a Bot API token: the token in the path is the credential (no header is
	 * read), and the resource is the one userbot its key is kept to.
	 */
	const byToken = (
		request: Request,
		entry: PolicyEntry,
		finder: Finder,
		raw: string | undefined,
	): Principal | undefined | Promise<Principal | undefined> => {
		const asked: CallerOutcome | Promise<CallerOutcome> =
			raw !== undefined && auth.botCaller
				? auth.botCaller(request, raw)
				: { ok: false, status: 401, body: notAuthenticated }
		return then(asked, (outcome) => {
			if (!outcome.ok && outcome.status !== 401) throw new HttpError(outcome.status, outcome.body)
			const principal = outcome.ok ? outcome.caller.principal : null
			const decide = (found: Found[]) => {
				const decision = can(principal, entry, found)
				if (!decision.ok) throw refusalError(decision, outcome)
				return principal ?? undefined
			}
			if (!principal) return decide([])
			const ids = principal.key?.scopes.userbotIds
			return then(locateBy('userbot', finder, ids?.length === 1 ? String(ids[0]) : undefined), (found) =>
				decide([found]),
			)
		})
	}

	return {
		covers: (entry) => uncovered(entry, locators),
		admit(entry, { request, params }) {
			if (entry.resource === 'public') return undefined
			const token = tokenFinder(entry)
			if (token) return byToken(request, entry, token, params[token.name])
			const outcome = auth.caller(request)
			// The hot path (GET /accounts/me/ from a session memory vouches for) stays synchronous.
			const located = (entry.find ?? []).some((f) => f.from === 'param')
			if (!(outcome instanceof Promise) && !located) return admitNow(outcome, entry)
			return Promise.resolve(outcome).then((o) => decide(o, entry, params))
		},
		async admitBody(entry, principal, body) {
			const finders = bodyFinders(entry)
			if (finders.length === 0 || !principal) return
			const fields = (body ?? {}) as Record<string, unknown>
			const found = (
				await Promise.all(
					finders.map((f) => inBody(locators, principal, f, fields[(f as { field: string }).field])),
				)
			).filter((f): f is Found => f !== null)
			const decision = can(principal, { ...entry, find: finders }, found)
			if (!decision.ok) throw refusalError(decision)
		},
	}
}
