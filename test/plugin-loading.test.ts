import { afterEach, describe, expect, it } from 'bun:test'
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { Elysia } from 'elysia'
import * as v from 'valibot'
import { chatsPlugin } from '../examples/chats'
import { builtInPlugins } from '../src/app'
import { defineCommand } from '../src/server/commands/define'
import { ConfigError, loadConfig } from '../src/server/config'
import { definePlugin } from '../src/server/plugin/define'
import { loadPluginModule } from '../src/server/plugin/loader'
import { getTestInstance, type TestInstance } from './helpers'

const REPO = resolve(import.meta.dir, '..')
let instance: TestInstance | undefined
const temp: string[] = []
afterEach(async () => {
	await instance?.stop()
	instance = undefined
	for (const dir of temp.splice(0)) rmSync(dir, { recursive: true, force: true })
})

const startFails = async (
	env: Record<string, string>,
	plugins?: readonly ReturnType<typeof definePlugin>[],
) => {
	const started = getTestInstance({ TDLIB_BACKEND: 'tdlib', ...env }, { plugins, listen: false })
	const err = await started.then(
		async (i) => {
			await i.stop()
			return undefined
		},
		(e: unknown) => e as Error,
	)
	if (!err) throw new Error('the app started')
	expect(err.message).not.toContain('\n')
	return err
}

describe('the built-in plugins', () => {
	// One list (src/app/index.ts): what a start without PLUGINS loads is what PLUGINS knows by id.
	it('are the ones a start without PLUGINS loads, in the same order', async () => {
		instance = await getTestInstance({}, { listen: false })
		const ids = builtInPlugins.map((p) => p.id)
		expect(instance.plugins).toEqual(ids.filter((id) => id !== 'api-accounts'))
		expect(loadConfig({ DATA_DIR: instance.dataDir }).plugins).toEqual([])
	})
})

describe('createApp({ plugins })', () => {
	it('loads a plugin given beside the built-in ones when PLUGINS is left unset', async () => {
		instance = await getTestInstance({}, { plugins: [...builtInPlugins, chatsPlugin], listen: false })
		expect(instance.commands.get('example_get_chats')?.groupId).toBe('chats')
		expect(instance.commands.get('send_message')?.groupId).toBe('commands-messages')
	})

	it('loads it when PLUGINS names its id', async () => {
		instance = await getTestInstance(
			{ PLUGINS: 'accounts,userbots,chats' },
			{ plugins: [...builtInPlugins, chatsPlugin], listen: false },
		)
		expect([...instance.commands.values()].map((c) => c.groupId).sort()).toContain('chats')
		expect(instance.commands.has('send_message')).toBe(false)
	})
})

describe('conflicts stop the start, with one line naming both sides', () => {
	it('two plugins of one id', async () => {
		const err = await startFails({ PLUGINS: 'accounts,chats,./examples/chats' }, [
			...builtInPlugins,
			chatsPlugin,
		])
		expect(err.message).toBe(
			"plugin id 'chats' is claimed by both 'chats' (createApp plugins) and 'chats' (PLUGINS ./examples/chats)",
		)
	})

	it('two plugins claiming one route', async () => {
		const impostor = definePlugin({
			id: 'impostor',
			build: () => new Elysia().post('/accounts/login/', () => 'mine'),
		})
		const err = await startFails({}, [...builtInPlugins, impostor])
		expect(err.message).toBe(
			"route POST /accounts/login/ is claimed by both plugin 'accounts' and plugin 'impostor'",
		)
		const squatter = definePlugin({ id: 'squatter', build: () => new Elysia().get('/health', () => 'mine') })
		expect((await startFails({}, [squatter])).message).toBe(
			"route GET /health is claimed by both the core and plugin 'squatter'",
		)
		const shaped = definePlugin({
			id: 'shaped',
			build: () => new Elysia().get('/api/userbots/:userbot/', () => 'mine'),
		})
		expect((await startFails({}, [...builtInPlugins, shaped])).message).toBe(
			"route GET /api/userbots/:userbot/ is claimed by both plugin 'userbots' (as GET /api/userbots/:id/) and plugin 'shaped'",
		)
	})

	it('two groups claiming one command', async () => {
		const copy = definePlugin({
			id: 'copycat',
			commands: [
				defineCommand({
					name: 'example_get_chat',
					policy: { action: 'write' },
					methods: [],
					input: v.looseObject({}),
					run: async () => null,
				}),
			],
		})
		const err = await startFails({}, [...builtInPlugins, chatsPlugin, copy])
		expect(err.message).toBe(
			"command 'example_get_chat' is registered by both command groups 'chats' and 'copycat'",
		)
	})
})

describe('PLUGINS naming a package or a path', () => {
	const outside = () => {
		const dir = mkdtempSync(join(tmpdir(), 'ubg-plugins-'))
		temp.push(dir)
		return dir
	}

	it('refuses a name that is neither a plugin given nor found, before anything is opened', async () => {
		const typo = await startFails({ PLUGINS: 'accounts,comands-messages' })
		expect(typo).toBeInstanceOf(ConfigError)
		expect(typo.message).toBe(
			"PLUGINS: unknown plugin 'comands-messages': no plugin of that id (accounts, api-accounts, userbots, commands-messages, commands-sessions, commands-security, commands-members, commands-chat-admin, commands-chats, commands-td-invoke, webhooks, bot-api, mcp), and no package of that name",
		)
		const path = await startFails({ PLUGINS: 'accounts,./no/such/group' })
		expect(path.message).toBe("PLUGINS: unknown plugin './no/such/group': no file at that path")
		let form: unknown
		try {
			loadConfig({ DATA_DIR: outside(), PLUGINS: 'accounts,Chats!' })
		} catch (e) {
			form = e
		}
		expect((form as Error).message).toBe("PLUGINS: 'Chats!' is not a plugin id, a package name or a path")
	})

	it('refuses a module that exports no plugin, or cannot be loaded, in one line', async () => {
		const err = await startFails({ PLUGINS: 'accounts,./examples/chats/errors.ts' })
		expect(err).toBeInstanceOf(ConfigError)
		expect(err.message).toBe(
			'PLUGINS: ./examples/chats/errors.ts: exports no plugin (a default export or an export named plugin, made with definePlugin)',
		)
		const dir = outside()
		writeFileSync(join(dir, 'broken.ts'), 'export default {\n')
		const broken = await startFails({ PLUGINS: `accounts,${join(dir, 'broken.ts')}` })
		expect(broken.message).toStartWith(`PLUGINS: ${join(dir, 'broken.ts')}: cannot be loaded: `)
	})

	it('loads a package from node_modules, by its name', async () => {
		const dir = outside()
		const pkg = join(dir, 'node_modules', 'acme-chats')
		mkdirSync(pkg, { recursive: true })
		symlinkSync(REPO, join(dir, 'node_modules', 'userbot-gateway'))
		writeFileSync(
			join(pkg, 'package.json'),
			JSON.stringify({ name: 'acme-chats', type: 'module', main: 'index.ts' }),
		)
		writeFileSync(
			join(pkg, 'index.ts'),
			"import { definePlugin, defineCommand, fields } from 'userbot-gateway/plugin'\n" +
				"export const plugin = definePlugin({ id: 'acme', commands: [defineCommand({ name: 'acme_ping', methods: [], input: fields({}), run: async () => 'pong' })] })\n",
		)
		const plugin = await loadPluginModule('acme-chats', dir)
		expect(plugin.id).toBe('acme')
		expect(plugin.commands?.map((c) => c.name)).toEqual(['acme_ping'])
	})
})
