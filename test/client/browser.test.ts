import { describe, expect, it } from 'bun:test'
import { resolve } from 'node:path'

/**
 * `userbot-gateway/client` goes into a web page (the console's bundle): it builds for the browser
 * alone, with nothing of Node or of the server in it (the command and REST types are types only).
 */
const ENTRY = resolve(import.meta.dir, '../../src/public/client.ts')

describe('userbot-gateway/client in a browser bundle', () => {
	it('bundles for the browser with no Node module, no server code and its public functions', async () => {
		const built = await Bun.build({ entrypoints: [ENTRY], target: 'browser', format: 'esm', minify: false })
		expect(built.logs.map(String)).toEqual([])
		expect(built.success).toBe(true)
		const code = (await built.outputs[0]?.text()) ?? ''
		expect(code).not.toMatch(/["']node:|\brequire\(/)
		// What would only come in with the server: TDLib's bindings, the database, the HTTP framework.
		for (const server of ['tdl', 'libsql', 'drizzle', 'new Elysia', 'valibot', 'prebuilt-tdlib'])
			expect({ server, in: code.includes(server) }).toEqual({ server, in: false })
		for (const name of ['createClient', 'createRestClient', 'CommandFailed', 'ClientError', 'backoffDelay'])
			expect(code).toMatch(new RegExp(`export\\s*\\{[^}]*\\b${name}\\b`))
	})
})
