import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig } from '../../server/config'
import type { PluginDefinition } from '../../server/plugin/define'
import { type App, builtInPlugins, createApp } from '..'

/**
 * `userbot-gateway/testing`: a whole server for a plugin's tests, on the Telegram emulator (no
 * network, no API id), on 127.0.0.1 and a free port, with its own data folder. Everything a test
 * needs goes through the public REST API, as a real client's would: a user, a bearer token, a
 * userbot logged in to an emulated account (`9996621234` is Bob; `99966XYYYY` logs in with the code
 * `XXXXX`; `9996631111` also needs the 2FA password `secret-2fa`).
 */
export interface TestServer {
	/** `http://127.0.0.1:<port>` */
	url: string
	app: App
	/** Registers a user (owner of a new company) and returns a bearer access token. */
	registerUser(email?: string): Promise<TestUser>
	/** Adds a userbot to the user's company and logs it in to an emulated account (REST log-in steps). */
	createUserbot(user: TestUser, phone?: string): Promise<number>
	stop(): Promise<void>
}

export interface TestUser {
	email: string
	password: string
	access: string
	refresh: string
}

export interface TestServerOptions {
	/** The plugins (default: the built-in ones); add yours: `[...builtInPlugins, myPlugin]`. */
	plugins?: readonly PluginDefinition[]
	/** Environment over the test defaults (emulator, port 0, a temporary DATA_DIR, no logs). */
	env?: Record<string, string>
}

let users = 0

export async function startTestServer(opts: TestServerOptions = {}): Promise<TestServer> {
	const dataDir = mkdtempSync(join(tmpdir(), 'ubg-plugin-test-'))
	const config = loadConfig({
		DATA_DIR: dataDir,
		TDLIB_BACKEND: 'emulator',
		PORT: '0',
		LOG_LEVEL: 'silent',
		// `npm test` records each shape of TDLib request for the conformance judge.
		...(process.env.TDLIB_REQUEST_LOG ? { TDLIB_REQUEST_LOG: process.env.TDLIB_REQUEST_LOG } : {}),
		...opts.env,
	})
	let app: App
	try {
		app = await createApp(config, { plugins: opts.plugins ?? builtInPlugins })
	} catch (err) {
		rmSync(dataDir, { recursive: true, force: true })
		throw err
	}
	app.app.listen({ port: 0, hostname: '127.0.0.1' })
	const url = `http://127.0.0.1:${app.app.server?.port}`
	config.publicUrl = url

	const post = async (path: string, body: unknown, access?: string) => {
		const res = await fetch(`${url}${path}`, {
			method: 'POST',
			headers: {
				'content-type': 'application/json',
				...(access ? { authorization: `Bearer ${access}` } : {}),
			},
			body: JSON.stringify(body),
		})
		const data = (await res.json()) as Record<string, unknown>
		if (!res.ok) throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(data)}`)
		return data
	}

	return {
		url,
		app,
		async registerUser(email = `user-${process.pid}-${++users}@example.com`) {
			const password = 'Correct-Horse-42'
			await post('/accounts/register/', { email, password, first_name: 'Test', last_name: 'User' })
			const pair = await post('/accounts/token/', { email, password })
			return { email, password, access: String(pair.access), refresh: String(pair.refresh) }
		},
		async createUserbot(user, phone = '9996621234') {
			const created = await post('/api/userbots/', { name: 'test' }, user.access)
			const id = Number(created.id)
			await post(`/api/userbots/${id}/phone/`, { phone_number: phone }, user.access)
			const state = await post(`/api/userbots/${id}/code/`, { code: phone.charAt(5).repeat(5) }, user.access)
			if (state.authorization_state === 'authorizationStateWaitPassword') {
				await post(`/api/userbots/${id}/password/`, { password: 'secret-2fa' }, user.access)
			}
			return id
		},
		async stop() {
			await app.app.stop(true)
			await app.close()
			rmSync(dataDir, { recursive: true, force: true })
		},
	}
}
