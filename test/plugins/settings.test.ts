import { afterEach, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as v from 'valibot'
import { accounts } from '../../plugins/accounts'
import { apiAccounts } from '../../plugins/api-accounts'
import { userbots } from '../../plugins/userbots'
import { webhooks } from '../../plugins/webhooks'
import { WEBHOOK_SETTINGS } from '../../plugins/webhooks/settings'
import { builtInPlugins } from '../../src/app'
import { startServer } from '../../src/platform/bun/serve'
import { ConfigError } from '../../src/server/config'
import type { PluginDefinition } from '../../src/server/plugin/define'
import { definePluginSettings, setting } from '../../src/server/plugin/settings'
import { getTestInstance, type TestInstance } from '../helpers'

/**
 * Plugins own their settings (docs/plugins.md#settings): each loaded plugin reads its own variables
 * when the app is made, refuses a bad one with the core's one line, takes options in code over the
 * environment, and a plugin left out has its variables neither read nor required.
 */

let instance: TestInstance | undefined
const dirs: string[] = []
afterEach(async () => {
	await instance?.stop()
	instance = undefined
	for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** `npm start`'s way: the one line a failed start prints, or null when it started (then stopped). */
async function startLine(env: Record<string, string>): Promise<string | null> {
	const dir = mkdtempSync(join(tmpdir(), 'ubg-settings-'))
	dirs.push(dir)
	const base = { DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', TDLIB_BACKEND: 'emulator' }
	const started = await startServer({ ...base, ...env })
	if (!started.ok) return started.line
	await started.instance.app.stop(true)
	await started.instance.close()
	return null
}

/** The plugin as given, with the settings it is built with handed to `seen`. */
function watching<P extends PluginDefinition>(
	plugin: P,
	seen: (settings: Record<string, unknown>) => void,
): P {
	return {
		...plugin,
		build: (ctx: Parameters<NonNullable<P['build']>>[0], settings: Record<string, unknown>) => {
			seen(settings)
			return plugin.build?.(ctx, settings) ?? null
		},
	}
}

describe("a plugin's bad setting stops the start", () => {
	it.each([
		['WEBHOOK_TIMEOUT', 'hunter2-secret', 'configuration error: WEBHOOK_TIMEOUT: must be a whole number'],
		[
			'WEBHOOK_OUTBOX',
			'hunter2-secret',
			'configuration error: WEBHOOK_OUTBOX: must be auto, database or jetstream',
		],
		[
			'WEBHOOK_ALLOWED_HOSTS',
			'hunter2 secret',
			'configuration error: WEBHOOK_ALLOWED_HOSTS: must be host names, IP addresses or CIDRs, comma-separated',
		],
		[
			'PROXY_ALLOWED_HOSTS',
			'hunter2 secret',
			'configuration error: PROXY_ALLOWED_HOSTS: must be host names, IP addresses or CIDRs, comma-separated',
		],
		['COMPANY_USERBOT_LIMIT', '0', 'configuration error: COMPANY_USERBOT_LIMIT: must be at least 1'],
		['EMULATOR_CONTROL', 'hunter2-secret', 'configuration error: EMULATOR_CONTROL: must be true or false'],
		[
			'MAIN_SERVER_TIMEOUT',
			'hunter2-secret',
			'configuration error: MAIN_SERVER_TIMEOUT: must be a whole number',
		],
		[
			'MAIN_SERVER_URL',
			'https://admin:hunter2-secret@main.example.org/',
			'configuration error: MAIN_SERVER_URL: must not carry a user name or password',
		],
		[
			'SMTP_URL',
			'ftp://mail:hunter2-secret@mail.example.org',
			'configuration error: SMTP_URL: must start with smtp:// or smtps://',
		],
		['EMAIL_FROM', 'hunter2-secret', 'configuration error: EMAIL_FROM: must be an email address'],
		['RESET_TOKEN_LIFETIME', '59', 'configuration error: RESET_TOKEN_LIFETIME: must be at least 60'],
		['INVITE_LIFETIME', 'hunter2-secret', 'configuration error: INVITE_LIFETIME: must be a whole number'],
		[
			'REGISTER_RATE_LIMIT_IP',
			'1000001',
			'configuration error: REGISTER_RATE_LIMIT_IP: must be at most 1000000',
		],
		['REGISTER_RATE_WINDOW', '86401', 'configuration error: REGISTER_RATE_WINDOW: must be at most 86400'],
		['RESET_RATE_LIMIT_EMAIL', '-3', 'configuration error: RESET_RATE_LIMIT_EMAIL: must be a whole number'],
		['RESET_RATE_LIMIT_IP', '2.5', 'configuration error: RESET_RATE_LIMIT_IP: must be a whole number'],
		['RESET_RATE_WINDOW', '0', 'configuration error: RESET_RATE_WINDOW: must be at least 1'],
	])('%s=%s: one line naming the variable, never the value', async (name, value, line) => {
		const said = await startLine({ [name]: value })
		expect(said).toBe(line)
		expect(said).not.toContain(value)
	})
})

describe('a plugin left out', () => {
	it('has its variables neither read nor required', async () => {
		const bad = {
			WEBHOOK_TIMEOUT: 'soon',
			COMPANY_USERBOT_LIMIT: 'many',
			EMULATOR_CONTROL: 'maybe',
			MAIN_SERVER_URL: 'main.example.org',
		}
		expect(await startLine({ ...bad, PLUGINS: 'accounts' })).toBeNull()
		// The same values with the plugins loaded: refused, the first loaded plugin's first.
		expect(await startLine({ ...bad, PLUGINS: 'accounts,userbots,webhooks' })).toBe(
			'configuration error: COMPANY_USERBOT_LIMIT: must be a whole number',
		)
	})
})

describe('the accounts plugin (family A) owns its settings', () => {
	const bad = {
		SMTP_URL: 'ftp://mail.example.org',
		EMAIL_FROM: 'nobody',
		RESET_TOKEN_LIFETIME: 'soon',
		INVITE_LIFETIME: 'soon',
		REGISTER_RATE_LIMIT_IP: 'many',
		REGISTER_RATE_WINDOW: 'long',
		RESET_RATE_LIMIT_EMAIL: 'many',
		RESET_RATE_LIMIT_IP: 'many',
		RESET_RATE_WINDOW: 'long',
	}

	it('left out, none of its variables is read or required', async () => {
		expect(await startLine({ ...bad, PLUGINS: 'userbots' })).toBeNull()
		expect(await startLine({ ...bad, PLUGINS: 'userbots,accounts' })).toBe(
			'configuration error: SMTP_URL: must start with smtp:// or smtps://',
		)
	})

	it('takes options in code over the environment: accounts({ registerRateLimitIp, inviteLifetime })', async () => {
		const own = accounts({ registerRateLimitIp: 1, inviteLifetime: 120 })
		instance = await getTestInstance(
			{ INVITE_LIFETIME: 'soon', REGISTER_RATE_LIMIT_IP: '1000' },
			{ plugins: [own] },
		)
		const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
			fetch(instance?.url + path, {
				method: 'POST',
				headers: { 'content-type': 'application/json', ...headers },
				body: JSON.stringify(body),
			})
		const owner = {
			email: 'owner@example.com',
			password: 'Vq7#pLm2!xZr9wTb',
			first_name: 'A',
			last_name: 'B',
		}
		expect((await post('/accounts/register/', owner)).status).toBe(201)
		// The option's limit (1), not the environment's (1000).
		const second = await post('/accounts/register/', { ...owner, email: 'second@example.com' })
		expect(second.status).toBe(429)
		const login = await post('/accounts/token/', { email: owner.email, password: owner.password })
		const { access } = (await login.json()) as { access: string }
		const made = await post('/accounts/invites/', {}, { authorization: `Bearer ${access}` })
		expect(made.status).toBe(201)
		const { expires_at } = (await made.json()) as { expires_at: string }
		// 120 seconds from the option, where INVITE_LIFETIME's value would not even start the app.
		const left = Date.parse(expires_at) - Date.now()
		expect(left).toBeGreaterThan(60_000)
		expect(left).toBeLessThanOrEqual(120_000)
	})
})

describe('options in code', () => {
	it('override the environment, and go through the same checks', () => {
		const env = { WEBHOOK_TIMEOUT: 'soon', WEBHOOK_POLL: '30' }
		expect(() => WEBHOOK_SETTINGS.read(env)).toThrow(
			new ConfigError('WEBHOOK_TIMEOUT: must be a whole number'),
		)
		const read = WEBHOOK_SETTINGS.read(env, { timeoutMs: 2000, allowedHosts: ['Hooks.Example'] })
		expect(read).toMatchObject({ timeoutMs: 2000, pollMs: 30, allowedHosts: ['hooks.example'] })
		expect(() => WEBHOOK_SETTINGS.read({}, { timeoutMs: 5 })).toThrow(
			new ConfigError('WEBHOOK_TIMEOUT (option timeoutMs): must be at least 100'),
		)
	})

	it('reach the plugin built by the app, over a bad value in the environment', async () => {
		let seen: Record<string, unknown> = {}
		const hooks = watching(webhooks({ timeoutMs: 2500, pollMs: 40 }), (s) => {
			seen = s
		})
		const plugins = [...builtInPlugins.filter((p) => p.id !== 'webhooks'), hooks]
		instance = await getTestInstance(
			{ WEBHOOK_TIMEOUT: 'soon', WEBHOOK_POLL: '50' },
			{ plugins, listen: false },
		)
		expect(seen).toMatchObject({ timeoutMs: 2500, pollMs: 40, outbox: 'auto' })
	})

	it('give family B its main server without MAIN_SERVER_URL: apiAccounts({ mainServerUrl })', async () => {
		const b = apiAccounts({ mainServerUrl: 'http://127.0.0.1:9', mainServerTimeoutMs: 300 })
		instance = await getTestInstance(
			{ PLUGINS: 'accounts,api-accounts' },
			{ plugins: [...builtInPlugins.filter((p) => p.id !== 'api-accounts'), b] },
		)
		expect(instance.plugins).toEqual(['accounts', 'api-accounts'])
		const res = await fetch(`${instance.url}/api/accounts/login/`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ email: 'b@example.com', password: 'long enough password' }),
		})
		// Nothing listens at the main server's port: the login is answered 502, not 404.
		expect(res.status).toBe(502)
	})

	it('turn on what the environment leaves off: userbots({ emulatorControl: true })', async () => {
		const on = [...builtInPlugins.filter((p) => p.id !== 'userbots'), userbots({ emulatorControl: true })]
		instance = await getTestInstance({}, { plugins: on })
		const res = await fetch(`${instance.url}/api/emulator/revoke/`, { method: 'POST', body: '{}' })
		// Served (it asks who is calling), where without the option it is 404 (test/flood/health.test.ts).
		expect(res.status).toBe(401)
	})

	it('refused at start with the line of the setting they override', async () => {
		const plugins = [...builtInPlugins.filter((p) => p.id !== 'webhooks'), webhooks({ retryCapMs: 0 })]
		const failed = await getTestInstance({}, { plugins, listen: false }).then(
			async (i) => {
				await i.stop()
				return null
			},
			(err: unknown) => err as Error,
		)
		expect(failed).toBeInstanceOf(ConfigError)
		expect(failed?.message).toBe('WEBHOOK_RETRY_CAP (option retryCapMs): must be at least 1')
	})
})

describe('a third-party plugin (test/plugins/fixtures/notes, loaded by PLUGINS from its path)', () => {
	const NOTES = { PLUGINS: 'accounts,./test/plugins/fixtures/notes' }

	it('declares its own settings and table: read at start, its migrations applied once', async () => {
		const dataDir = mkdtempSync(join(tmpdir(), 'ubg-notes-'))
		dirs.push(dataDir)
		const env = { ...NOTES, NOTES_GREETING: 'hi there' }
		instance = await getTestInstance(env, { dataDir })
		const first = await (await fetch(`${instance.url}/notes/`)).json()
		expect(first).toEqual({ greeting: 'hi there', keep: 10, starts: 1 })
		await instance.stop()
		// Again on the same database: the table kept its row, its one migration is not run twice.
		instance = await getTestInstance({ ...env, NOTES_KEEP: '3' }, { dataDir })
		expect(await (await fetch(`${instance.url}/notes/`)).json()).toEqual({
			greeting: 'hi there',
			keep: 3,
			starts: 2,
		})
		const applied = await instance.handle.client.execute(
			'select count(*) as n from __drizzle_migrations_notes',
		)
		expect(Number(applied.rows[0]?.n)).toBe(1)
	})

	it('refuses its bad setting at start in one line, and leaves it unread when not loaded', async () => {
		expect(await startLine({ ...NOTES, NOTES_KEEP: '0' })).toBe(
			'configuration error: NOTES_KEEP: must be at least 1',
		)
		expect(await startLine({ PLUGINS: 'accounts', NOTES_KEEP: '0' })).toBeNull()
	})
})

describe("a setting's refusal never quotes the value", () => {
	it("words a schema's own message without the value (valibot's default ends with it)", () => {
		const settings = definePluginSettings({
			mode: setting('NOTES_MODE', v.picklist(['fast', 'safe'])),
			token: setting('NOTES_TOKEN', v.pipe(v.string(), v.length(8))),
		})
		const secret = 'hunter2-secret-value'
		const refusal = (env: Record<string, string>) => {
			try {
				settings.read({ NOTES_MODE: 'fast', NOTES_TOKEN: '12345678', ...env })
				return null
			} catch (err) {
				return err instanceof ConfigError ? err.message : String(err)
			}
		}
		const mode = refusal({ NOTES_MODE: secret })
		expect(mode).toBe('NOTES_MODE: must be ("fast" | "safe")')
		const token = refusal({ NOTES_TOKEN: secret })
		expect(token).toStartWith('NOTES_TOKEN: ')
		expect(token).not.toContain(secret)
		expect(refusal({})).toBeNull()
	})
})
