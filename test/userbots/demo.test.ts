import { afterAll, describe, expect, it } from 'bun:test'
import { memberFor, openSocket, removeDir, tempDir } from '../plugins/userbots/support'

const dataDir = tempDir()
const procs: Array<ReturnType<typeof Bun.spawn>> = []
afterAll(async () => {
	for (const p of procs) {
		p.kill('SIGTERM')
		await p.exited
	}
	removeDir(dataDir)
})

/** Runs `bun src/demo.ts` and reads what it prints until it is ready. */
async function runDemo(): Promise<string> {
	const proc = Bun.spawn([process.execPath, 'src/demo.ts'], {
		env: { ...process.env, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent' },
		stdout: 'pipe',
		stderr: 'inherit',
	})
	procs.push(proc)
	let out = ''
	const decoder = new TextDecoder()
	for await (const chunk of proc.stdout) {
		out += decoder.decode(chunk)
		if (out.includes('Ctrl-C')) break
	}
	return out
}

describe('npm run demo', () => {
	it('prints a login and a command that works, and starts again on its own data', async () => {
		const out = await runDemo()
		expect(out).toContain('demo@example.com')
		const url = /Telegram emulator: (http:\/\/\S+)/.exec(out)?.[1] ?? ''
		const command = JSON.parse(/^\s+(\{"action".*\})$/m.exec(out)?.[1] ?? '{}') as Record<string, unknown>
		const password = /password (\S+)/.exec(out)?.[1] ?? ''
		const member = await memberFor(url, 'demo@example.com', password)
		const ws = await openSocket(url, member.access)
		const reply = await ws.command(String(command.action), Number(command.userbot_id), command)
		ws.close()
		expect(reply.error).toBeUndefined()
		expect(reply.type).toBe('send_message')

		const first = procs.pop()
		first?.kill('SIGTERM')
		expect(await first?.exited).toBe(0)
		const second = await runDemo()
		expect(second).toContain(`userbot  #${command.userbot_id}`)
	})
})
