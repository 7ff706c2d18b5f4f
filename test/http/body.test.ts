import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { TEXT_FAULT_MESSAGES } from '../../src/common/util/text'
import { MESSAGES } from '../../src/server/auth/errors'
import { INVALID_VALUE } from '../../src/server/http/field-rule'
import { createUserbot, type FreshServer, type Member, serveFresh, signUp } from '../plugins/userbots/support'

/** What valibot writes when a schema did not word an issue: it quotes the input. */
const VALIBOT_DEFAULT =
	/Invalid (type|key|length|value|format|entry|item)\b|Expected .* but received|Received /i

/** Every field message a REST body may answer with: the ones we wrote. */
const OURS: RegExp[] = [
	...[
		MESSAGES.required,
		MESSAGES.notString,
		MESSAGES.blank,
		MESSAGES.invalidEmail,
		MESSAGES.emailTaken,
		MESSAGES.invalidInvite,
		MESSAGES.invalidResetToken,
		'This field may not be null.',
		'Enter a valid phone number.',
		INVALID_VALUE,
		...Object.values(TEXT_FAULT_MESSAGES),
	].map((m) => new RegExp(`^${m.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`)),
	/^Ensure this field has no more than \d+ characters\.$/,
	// The password policy's own sentences (check-password/ runs it on any string).
	/^This password (is too short|is too common|is entirely numeric|is too similar)/,
]

describe('every REST body field, sent the wrong type', () => {
	let server: FreshServer
	let owner: Member
	let id: number
	beforeAll(async () => {
		server = await serveFresh()
		owner = await signUp(server.url)
		id = await createUserbot(owner)
	})
	afterAll(() => server.dispose())

	const WRONG: unknown[] = [5, -1.5, true, false, null, [], ['x'], {}, { text: 'x' }, { a: { b: [1] } }, '']

	it('answers only with messages we wrote', async () => {
		const fields: Array<[string, string[]]> = [
			['/accounts/register/', ['email', 'password', 'first_name', 'last_name', 'invite']],
			['/accounts/check-password/', ['email', 'password', 'first_name', 'last_name']],
			['/accounts/login/', ['email', 'password']],
			['/accounts/token/', ['email', 'password']],
			['/accounts/token/refresh/', ['refresh']],
			['/accounts/token/blacklist/', ['refresh']],
			['/accounts/request-reset/', ['email', 'token']],
			['/accounts/reset-password/', ['email', 'token', 'new_password']],
			['/accounts/invites/', ['email']],
			['/api/userbots/', ['name']],
			[`/api/userbots/${id}/phone/`, ['phone_number']],
			[`/api/userbots/${id}/code/`, ['code']],
			[`/api/userbots/${id}/password/`, ['password']],
			[`/api/userbots/${id}/register/`, ['first_name', 'last_name']],
		]
		let checked = 0
		for (const [path, names] of fields) {
			for (const name of names) {
				for (const value of WRONG) {
					const res = await owner.call('POST', path, { [name]: value })
					const text = await res.text()
					expect(text).not.toMatch(VALIBOT_DEFAULT)
					if (res.status !== 400) continue
					const body = JSON.parse(text) as Record<string, unknown>
					for (const [field, messages] of Object.entries(body)) {
						if (!Array.isArray(messages)) continue
						for (const message of messages) {
							if (!OURS.some((re) => re.test(String(message))))
								throw new Error(`${path} ${field}: unexpected message ${JSON.stringify(message)}`)
							checked++
						}
					}
				}
			}
		}
		// Every field was answered on: the sweep did reach the checks.
		expect(checked).toBeGreaterThan(fields.flatMap(([, n]) => n).length * 5)
	})
})
