import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { FAKE_PAIR, FAKE_PROFILE, type FakeMain, jsonAnswer, startFakeMain } from './fake-main'
import {
	edgeLogin,
	edgeSession,
	loggedIn,
	logout,
	mainAccount,
	PASSWORD,
	type Pair,
	setMainStatus,
	startEdge,
	startPair,
} from './support'

const mainLines: string[] = []
const edgeLines: string[] = []
let pair: Pair
let fake: FakeMain
beforeAll(async () => {
	pair = await startPair({ mainLogLines: mainLines, edgeLogLines: edgeLines })
	fake = startFakeMain((path) => {
		if (path === '/accounts/token/') return jsonAnswer(FAKE_PAIR)
		if (path === '/accounts/me/') return jsonAnswer({ ...FAKE_PROFILE, first_name: 'Bad\u0007' })
		return jsonAnswer({}, 500)
	})
})
afterAll(async () => {
	await pair.stop()
	await fake.stop()
})

describe('family B logs', () => {
	it('never write a password, a token or a session id, on the edge or the main', async () => {
		const owner = await mainAccount(pair.main)
		const member = await mainAccount(pair.main, { invitedBy: owner })
		const wrongPassword = 'Wrong-password-77'
		const secrets: string[] = [PASSWORD, wrongPassword, FAKE_PAIR.access, FAKE_PAIR.refresh]

		expect((await edgeLogin(pair.edge, owner.email, wrongPassword)).status).toBe(401)
		const login = await loggedIn(pair.edge, owner.email)
		const row = await edgeSession(pair.edge, login.sessionId)
		secrets.push(
			login.sessionId,
			login.csrfToken,
			row?.accessToken as string,
			row?.refreshToken as string,
			row?.mainAccessToken as string,
			row?.mainRefreshToken as string,
		)
		await setMainStatus(pair, member.id, 'on_leave')
		expect((await edgeLogin(pair.edge, member.email)).status).toBe(403)
		expect((await logout(pair.edge, login.cookie)).status).toBe(200)

		// The failing paths, which log: garbage from a main, then a main that is down at logout.
		const edgeOfFake = await startEdge(fake.url, {}, edgeLines)
		try {
			expect((await edgeLogin(edgeOfFake, FAKE_PROFILE.email)).status).toBe(502)
		} finally {
			await edgeOfFake.stop()
		}
		const again = await loggedIn(pair.edge, owner.email)
		const againRow = await edgeSession(pair.edge, again.sessionId)
		secrets.push(again.sessionId, againRow?.mainRefreshToken as string, againRow?.mainAccessToken as string)
		await pair.main.halt()
		const down = await logout(pair.edge, again.cookie)
		expect(((await down.json()) as { message: string }).message).toContain('could not be reached')

		// The checks below see real lines: the failures were logged, with their reasons.
		const warnings = edgeLines.filter((l) => l.includes('"main server unavailable"'))
		expect(warnings.some((l) => l.includes('"step":"me"') && l.includes('profile field first_name'))).toBe(
			true,
		)
		expect(warnings.some((l) => l.includes('"step":"blacklist"'))).toBe(true)
		for (const line of [...edgeLines, ...mainLines]) {
			for (const secret of secrets) expect(line).not.toContain(secret)
		}
	})
})
