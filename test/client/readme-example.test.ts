import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { startTestServer, type TestServer, type TestUser } from 'userbot-gateway/testing'

/**
 * The client example of docs/development.md ("Typed client") is examples/client/index.ts word for word, and
 * it runs: against a server on the emulator with a logged-in userbot it sends, sees its own message come back
 * as an update, and is refused a pin in TDLib's words.
 */
const REPO = resolve(import.meta.dir, '../..')
const EXAMPLE = join(REPO, 'examples/client/index.ts')

let server: TestServer
let user: TestUser
beforeAll(async () => {
	server = await startTestServer()
	user = await server.registerUser()
	await server.createUserbot(user)
})
afterAll(() => server?.stop())

describe("the docs' client example", () => {
	it('is in docs/development.md as it is in examples/client/index.ts', () => {
		const readme = readFileSync(join(REPO, 'docs/development.md'), 'utf8')
		const block = `\`\`\`ts\n${readFileSync(EXAMPLE, 'utf8')}\`\`\``
		if (!readme.includes(block))
			throw new Error(
				'the "Typed client" example of docs/development.md differs from examples/client/index.ts',
			)
		const section = readme.indexOf('\n## Typed client\n')
		expect(section).toBeGreaterThan(0)
		expect(readme.indexOf(block)).toBeGreaterThan(section)
	})

	it('runs: a command sent, its update read, a refusal caught', async () => {
		const run = Bun.spawn([process.execPath, EXAMPLE], {
			cwd: REPO,
			env: {
				...process.env,
				GATEWAY_URL: server.url,
				GATEWAY_EMAIL: user.email,
				GATEWAY_PASSWORD: user.password,
			},
			stdout: 'pipe',
			stderr: 'pipe',
		})
		const [code, out, err] = await Promise.all([
			run.exited,
			new Response(run.stdout).text(),
			new Response(run.stderr).text(),
		])
		expect({ code, err }).toEqual({ code: 0, err: '' })
		expect(out.trim().split('\n')).toEqual([
			'sent message',
			expect.stringMatching(/^update [1-9][0-9]* updateNewMessage$/),
			'refused Message not found',
		])
	})
})
