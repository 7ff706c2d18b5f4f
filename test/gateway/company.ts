import { getTestInstance, type TestInstance, type TestInstanceOptions } from '../helpers'
import { createLoggedInUserbot, registerUser, type TestUser } from '../helpers-ws'

/**
 * A company as its owner runs it: the owner, a member who joined by the owner's invite (with a
 * refresh token too), and a logged-in userbot of the company. Everything through the REST API.
 */
export interface Member extends TestUser {
	refresh: string
}

export interface Company {
	t: TestInstance
	owner: TestUser
	member: Member
	userbotId: number
	/** A REST call with a bearer token (a JSON body for POST). */
	call(method: string, path: string, access?: string, body?: unknown): Promise<Response>
	stop(): Promise<void>
}

let counter = 0

export async function joinCompany(t: TestInstance, owner: TestUser, email: string): Promise<Member> {
	const call = companyCall(t)
	const invite = await call('POST', '/accounts/invites/', owner.access, {})
	if (invite.status !== 201) throw new Error(`invite: ${invite.status} ${await invite.text()}`)
	const { token } = (await invite.json()) as { token: string }
	const password = 'Member-Horse-42'
	const reg = await call('POST', '/accounts/register/', undefined, {
		email,
		password,
		first_name: 'Mem',
		last_name: 'Ber',
		invite: token,
	})
	if (reg.status !== 201) throw new Error(`register: ${reg.status} ${await reg.text()}`)
	const { id } = (await reg.json()) as { id: number }
	const pair = await call('POST', '/accounts/token/', undefined, { email, password })
	if (pair.status !== 200) throw new Error(`token: ${pair.status} ${await pair.text()}`)
	const { access, refresh } = (await pair.json()) as { access: string; refresh: string }
	return { email, password, userId: id, companyId: owner.companyId, access, refresh }
}

export function companyCall(t: TestInstance) {
	return (method: string, path: string, access?: string, body?: unknown) =>
		fetch(`${t.url}${path}`, {
			method,
			headers: {
				...(access ? { authorization: `Bearer ${access}` } : {}),
				...(body === undefined ? {} : { 'content-type': 'application/json' }),
			},
			...(body === undefined ? {} : { body: JSON.stringify(body) }),
		})
}

export async function startCompany(
	env: Record<string, string> = {},
	opts: TestInstanceOptions = {},
): Promise<Company> {
	const t = await getTestInstance(env, opts)
	const n = ++counter
	const owner = await registerUser(t, `owner-${n}-${Date.now()}@example.com`)
	const member = await joinCompany(t, owner, `member-${n}-${Date.now()}@example.com`)
	const userbotId = await createLoggedInUserbot(t, owner.companyId)
	return { t, owner, member, userbotId, call: companyCall(t), stop: () => t.stop() }
}
