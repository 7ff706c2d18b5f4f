import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { chmodSync, copyFileSync, cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildBinary } from '../../src/build/compile'
import { connectWs } from '../helpers-ws'
import { startServerProcess } from './server-process'
import { logInUserbot, restSmoke } from './smoke'

/**
 * The binary extends as the server run from source does: a plugin in a folder of its own, outside
 * the repository and with no node_modules anywhere above it (examples/chats, copied), named by path in
 * `PLUGINS`. Its `userbot-gateway/plugin` and valibot imports are the binary's own copies, and its
 * command is answered over `/ws`. The same server shows that `/api/docs` is in the binary.
 */
const root = join(import.meta.dir, '..', '..')
const dirs: string[] = []
let binary: string

const folder = (prefix: string) => {
	const d = mkdtempSync(join(tmpdir(), prefix))
	dirs.push(d)
	return d
}

beforeAll(async () => {
	const built = await buildBinary(join(folder('ubg-bin-'), 'userbot-gateway'))
	binary = join(folder('ubg-bin-'), 'userbot-gateway')
	copyFileSync(built.outfile, binary)
	chmodSync(binary, 0o755)
}, 180_000)

afterAll(() => {
	for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

describe('the compiled binary with a plugin of its own', () => {
	it('loads examples/chats from a folder outside the repository and answers its command', async () => {
		const plugin = join(folder('ubg-plugin-'), 'chats')
		cpSync(join(root, 'examples', 'chats'), plugin, { recursive: true })
		// Nothing above the copy can lend it a package: the binary alone provides them.
		expect(existsSync(join(plugin, '..', 'node_modules'))).toBe(false)
		const cwd = folder('ubg-run-')
		const server = await startServerProcess([binary], {
			cwd,
			env: {
				PATH: process.env.PATH ?? '',
				HOME: cwd,
				PORT: '0',
				TDLIB_BACKEND: 'emulator',
				PLUGINS: `accounts,userbots,${plugin}`,
			},
		})
		try {
			expect(server.output()).toContain('"plugins":["accounts","userbots","chats"]')
			const { access } = await restSmoke(server.url)
			// The API's page is in the binary too, and asks nothing of another origin.
			const docs = await (await fetch(`${server.url}/api/docs`)).text()
			expect(docs).toContain('<code>/accounts/token/</code>')
			expect(docs).not.toMatch(/<script|https?:\/\/(?!127\.0\.0\.1)/)
			const id = await logInUserbot(server.url, access)
			const ws = await connectWs(server.url, { bearer: access })
			try {
				const reply = await ws.command({ action: 'example_get_chat', userbot_id: id, chat_id: -2001 })
				expect(reply.payload).toMatchObject({ type: 'example_get_chat', result: { _: 'chat', id: -2001 } })
				// Its own validation (valibot and the plugin API, the binary's copies) answers in its words.
				const refused = await ws.command({ action: 'example_get_chats', userbot_id: id, limit: 0 })
				expect(refused.payload.type).toBe('example_get_chats_error')
			} finally {
				ws.close()
			}
		} finally {
			expect(await server.stop()).toBe(0)
		}
		expect(server.output()).not.toMatch(/"level":"error"/)
	}, 120_000)
})
