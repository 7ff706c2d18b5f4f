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

/** Runs `bun src/entry/demo.ts` and reads what it prints until it is ready. */
async function runDemo(): Promise<string> {
	const proc = Bun.spawn([process.execPath, 'src/entry/demo.ts'], {
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

/**
 * Every command the demo prints runs on a machine with only Node and npm: no bun, bunx or curl.
 * The token line is run as printed (by sh, with this machine's node); the wscat line would fetch
 * wscat from the npm registry, which tests may not reach, so its shape is checked.
 */
async function expectCommandsForNodeAndNpm(out: string, url: string) {
	const commands = out
		.split('\n')
		.filter((l) => /^ {2}\S/.test(l) && !/^ {2}(user|password|userbot) |^ {2}\{/.test(l))
		.map((l) => l.trim())
	expect(commands).toHaveLength(2)
	for (const c of commands) expect(c).toMatch(/^(node|npx|npm) /)
	expect(out).not.toMatch(/\b(bunx|curl)\b|^\s*bun /m)
	const [token, wscat] = commands
	const run = Bun.spawn(['sh', '-c', token ?? ''], { stdout: 'pipe', stderr: 'pipe' })
	expect(await run.exited).toBe(0)
	const pair = JSON.parse(await new Response(run.stdout).text()) as { access?: string; refresh?: string }
	expect(pair.access).toBeString()
	expect(pair.refresh).toBeString()
	expect(wscat).toBe(`npx -y wscat -c ${url.replace(/^http/, 'ws')}/ws -H "Authorization: Bearer <access>"`)
}

describe('npm run demo', () => {
	it('prints a login and a command that works, and starts again on its own data', async () => {
		const out = await runDemo()
		expect(out).toContain('demo@example.com')
		// The demo seeded and asked through the typed clients: the Team Chat's members came back.
		expect(out).toMatch(/Team Chat has [1-9][0-9]* members/)
		const url = /Telegram emulator: (http:\/\/\S+)/.exec(out)?.[1] ?? ''
		const command = JSON.parse(/^\s+(\{"action".*\})$/m.exec(out)?.[1] ?? '{}') as Record<string, unknown>
		const password = /password (\S+)/.exec(out)?.[1] ?? ''
		const member = await memberFor(url, 'demo@example.com', password)
		const ws = await openSocket(url, member.access)
		const reply = await ws.command(String(command.action), Number(command.userbot_id), command)
		ws.close()
		expect(reply.error).toBeUndefined()
		expect(reply.type).toBe('send_message')
		await expectCommandsForNodeAndNpm(out, url)

		const first = procs.pop()
		first?.kill('SIGTERM')
		expect(await first?.exited).toBe(0)
		const second = await runDemo()
		expect(second).toContain(`userbot  #${command.userbot_id}`)
	})
})
