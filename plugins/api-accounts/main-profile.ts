import { FIELDS, normalizeEmail, parseFields } from 'userbot-gateway/plugin'
import * as v from 'valibot'
import { storedText } from './stored-text'

/**
 * What the main server's `GET /accounts/me/` says of the account (family A's profile body), checked
 * before anything of it is stored: a main server that sends something else is answered as one that
 * is down (502), never half-trusted.
 */
export interface MainProfile {
	id: number
	email: string
	firstName: string
	lastName: string
	status: { code: string; name: string }
	company: { id: number; name: string; active: boolean } | null
	isOwner: boolean
}

const mainId = v.pipe(v.number(), v.safeInteger(), v.minValue(1))

const MeBody = v.object({
	id: mainId,
	email: v.string(),
	first_name: v.string(),
	last_name: v.string(),
	status: v.object({ code: v.pipe(v.string(), v.regex(/^[a-z][a-z0-9_]{0,63}$/)), name: v.string() }),
	company: v.nullable(v.object({ id: mainId, name: v.string(), active: v.boolean() })),
	is_owner: v.boolean(),
})

/** Family A's lengths: names 150; a company is named after its owner ("<first name>'s company") or e-mail. */
const NAME_MAX = FIELDS.name.max
const COMPANY_NAME_MAX = 300
const STATUS_NAME_MAX = 64

/** The profile, or the name of what was wrong (for the log; never the value itself). */
export function readMainProfile(raw: unknown): MainProfile | { problem: string } {
	const parsed = v.safeParse(MeBody, raw)
	if (!parsed.success) {
		const path = parsed.issues[0].path?.map((p) => String(p.key)).join('.')
		return { problem: `profile field ${path || '(body)'}` }
	}
	const me = parsed.output
	let email: string
	try {
		email = normalizeEmail(parseFields({ email: me.email }, { email: FIELDS.email }).email)
	} catch {
		return { problem: 'profile field email' }
	}
	const firstName = storedText(me.first_name, NAME_MAX)
	if (firstName === null) return { problem: 'profile field first_name' }
	const lastName = storedText(me.last_name, NAME_MAX)
	if (lastName === null) return { problem: 'profile field last_name' }
	const statusName = storedText(me.status.name, STATUS_NAME_MAX)
	if (statusName === null) return { problem: 'profile field status.name' }
	let company: MainProfile['company'] = null
	if (me.company) {
		const name = storedText(me.company.name, COMPANY_NAME_MAX)
		if (name === null) return { problem: 'profile field company.name' }
		company = { id: me.company.id, name, active: me.company.active }
	}
	// Checked, not rewritten: the e-mail stays the main's own spelling, which its logins match.
	if (storedText(email, FIELDS.email.max) === null) return { problem: 'profile field email' }
	return {
		id: me.id,
		email,
		firstName,
		lastName,
		status: { code: me.status.code, name: statusName },
		company,
		isOwner: me.is_owner,
	}
}
