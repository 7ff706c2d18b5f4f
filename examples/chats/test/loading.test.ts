import { afterEach, describe, expect, it } from 'bun:test'
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createClient } from 'userbot-gateway/client'
import { startTestServer, type TestServer } from 'userbot-gateway/testing'

/**
 * The group loads with no change to the core: by `PLUGINS` naming its path, here and copied to a
 * folder outside the repository that has the service installed as a package (as an npm install
 * would leave it), beside the built-in plugins it names.
 */
const EXAMPLE = resolve(import.meta.dir, '..')
const REPO = resolve(EXAMPLE, '../..')

let server: TestServer | undefined
const temp: string[] = []
afterEach(async () => {
	await server?.stop()
	server = undefined
	for (const dir of temp.splice(0)) rmSync(dir, { recursive: true, force: true })
})

async function commandsServed(plugins: string) {
	server = await startTestServer({ env: { PLUGINS: plugins } })
	const user = await server.registerUser()
	const bob = await server.createUserbot(user)
	const client = createClient({ url: server.url, token: user.access })
	try {
		const chats = (await client.request({ action: 'example_get_chats', userbot_id: bob, limit: 1 })) as {
			type: string
			result: { chat_ids: number[] }
		}
		const other = await client.request({ action: 'pin_message', userbot_id: bob, chat_id: 1, message_id: 1 })
		return { chats, other, names: [...server.app.commands.keys()] }
	} finally {
		client.close()
	}
}

describe('the chats group loaded by PLUGINS', () => {
	it('loads from a path, beside the built-in plugins named with it, and nothing else', async () => {
		const { chats, other, names } = await commandsServed('accounts,userbots,./examples/chats')
		expect(chats.type).toBe('example_get_chats')
		expect(chats.result.chat_ids).toHaveLength(1)
		// The messages group was not named: its commands are not there.
		expect(other).toMatchObject({ type: 'pin_message_error', error: 'unknown action' })
		expect(names).toContain('search_public_chat')
		expect(names).not.toContain('send_message')
	})

	it('loads from a folder outside the repository, with the service installed as a package', async () => {
		const outside = mkdtempSync(join(tmpdir(), 'ubg-external-'))
		temp.push(outside)
		const group = join(outside, 'chats')
		mkdirSync(group)
		for (const file of readdirSync(EXAMPLE)) {
			if (file.endsWith('.ts')) cpSync(join(EXAMPLE, file), join(group, file))
		}
		mkdirSync(join(outside, 'node_modules'))
		symlinkSync(REPO, join(outside, 'node_modules', 'userbot-gateway'))
		symlinkSync(join(REPO, 'node_modules', 'valibot'), join(outside, 'node_modules', 'valibot'))
		const { chats, names } = await commandsServed(`accounts,userbots,${group}`)
		expect(chats.type).toBe('example_get_chats')
		expect(names).toContain('join_chat_by_invite_link')
	})
})
