import { afterEach, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type ServerProcess, startServerProcess } from './build/server-process'

/**
 * `bun src/entry/main.ts` without `TELEGRAM_API_ID` (and not on the emulator) serves, and says at
 * start, in one line, what userbots need: without it a newcomer learns it only from the 503 of the
 * first userbot added.
 */
const ROOT = join(import.meta.dir, '..')
const MAIN = join(ROOT, 'src', 'entry', 'main.ts')
const cleanup: Array<() => Promise<unknown> | unknown> = []
afterEach(async () => {
	for (const c of cleanup.splice(0).reverse()) await c()
})

async function start(extra: Record<string, string>): Promise<ServerProcess> {
	const dataDir = mkdtempSync(join(tmpdir(), 'ubg-telegram-'))
	cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }))
	// No `.env`, and an environment of the test's own: nothing of the machine's TELEGRAM_* gets in.
	const server = await startServerProcess([process.execPath, '--no-env-file', MAIN], {
		cwd: ROOT,
		env: { PATH: process.env.PATH ?? '', HOME: tmpdir(), DATA_DIR: dataDir, PORT: '0', ...extra },
	})
	cleanup.push(() => server.stop())
	return server
}

/** The JSON log lines written up to `listening`, which is written once the start is done. */
const startLines = (server: ServerProcess) => {
	const lines = server
		.output()
		.split('\n')
		.filter((l) => l.startsWith('{'))
		.map((l) => JSON.parse(l) as Record<string, unknown>)
	return lines.slice(
		0,
		lines.findIndex((l) => l.msg === 'listening'),
	)
}

describe('npm start without Telegram credentials', () => {
	it('says in one line at start that userbots need TELEGRAM_API_ID and TELEGRAM_API_HASH, or the emulator', async () => {
		const server = await start({})
		const said = startLines(server).filter((l) => JSON.stringify(l).includes('TELEGRAM_API_ID'))
		expect(said).toEqual([
			{
				time: expect.any(String),
				level: 'warn',
				msg: 'userbots cannot run',
				reason:
					'Telegram is not configured: set TELEGRAM_API_ID and TELEGRAM_API_HASH (get them at https://my.telegram.org), or TDLIB_BACKEND=emulator to try the service without Telegram',
			},
		])
	})

	it('says nothing of it on the emulator', async () => {
		const server = await start({ TDLIB_BACKEND: 'emulator' })
		const lines = startLines(server)
		expect(lines.map((l) => l.msg)).toContain('supervisor ready')
		expect(lines.filter((l) => JSON.stringify(l).includes('TELEGRAM_API_ID'))).toEqual([])
	})
})
