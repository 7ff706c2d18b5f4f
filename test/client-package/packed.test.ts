import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startTestServer, type TestServer, type TestUser } from 'userbot-gateway/testing'
import { buildClientPackage } from '../../packages/client/scripts/build'

/**
 * `@userbot-gateway/client` as an API user gets it: built, packed with `npm pack`, installed from the
 * tarball into an empty project outside the repository with npm, the docs' client example (the block
 * of "Typed client" in docs/development.md, taken from there) type-checked with `tsc --strict` with
 * the default lib and without DOM, compiled, and run with plain `node` (Node 20 has no global
 * WebSocket: the `ws` fallback carries it) against a real server. npm runs offline: the packages
 * beside ours (`ws`, and `@types/node` the example's `process` needs) are packed from this
 * repository's node_modules, as is `tsc`.
 */
const root = join(import.meta.dir, '..', '..')
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc')
const node = existsSync('/usr/bin/node') ? '/usr/bin/node' : 'node'

let project: string
let server: TestServer
let user: TestUser

/** A child process to its end (never blocking: the server under test is in this process). */
async function run(cmd: string[], cwd: string, env: Record<string, string> = {}) {
	const child = Bun.spawn(cmd, {
		cwd,
		env: { PATH: process.env.PATH ?? '', HOME: project, ...env },
		stdout: 'pipe',
		stderr: 'pipe',
	})
	const [code, out, err] = await Promise.all([
		child.exited,
		new Response(child.stdout).text(),
		new Response(child.stderr).text(),
	])
	return { code, out, err }
}

/** Beside the example: a command short of a required field must not compile (the directive fails if it does). */
const WRONG = `import { createClient } from '@userbot-gateway/client'
const client = createClient({ url: 'http://127.0.0.1:1' })
// @ts-expect-error message_id is required
export const refused = client.send('pin_message', { userbot_id: 1, chat_id: 2 })
`

function docsExample(): string {
	const docs = readFileSync(join(root, 'docs', 'development.md'), 'utf8')
	const section = docs.slice(docs.indexOf('\n## Typed client\n'))
	const block = /\n```ts\n([\s\S]*?)```\n/.exec(section)?.[1]
	if (!block?.includes('@userbot-gateway/client')) throw new Error('no client example in "Typed client"')
	return block
}

function tsconfig(lib: string[] | undefined, emit: boolean) {
	return JSON.stringify({
		compilerOptions: {
			strict: true,
			target: 'ES2022',
			module: 'NodeNext',
			moduleResolution: 'NodeNext',
			...(lib ? { lib } : {}),
			types: ['node'],
			// The package's declarations and @types/node are checked; TypeScript's own lib files are not.
			skipLibCheck: false,
			skipDefaultLibCheck: true,
			...(emit ? { outDir: 'out' } : { noEmit: true }),
		},
		files: ['index.ts', 'wrong.ts'],
	})
}

beforeAll(async () => {
	project = mkdtempSync(join(tmpdir(), 'ubg-client-'))
	const packs = join(project, 'packs')
	mkdirSync(packs)
	buildClientPackage()
	const deps = ['ws', '@types/node', 'undici-types'].map((d) => join(root, 'node_modules', d))
	const packed = await run(
		['npm', 'pack', '--silent', '--pack-destination', packs, join(root, 'packages', 'client'), ...deps],
		root,
	)
	expect(packed.code).toBe(0)
	writeFileSync(
		join(project, 'package.json'),
		JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
	)
	const tarballs = readdirSync(packs).map((f) => join(packs, f))
	const installed = await run(
		[
			'npm',
			'install',
			'--offline',
			'--no-audit',
			'--no-fund',
			'--ignore-scripts',
			'--cache',
			join(project, '.npm'),
			...tarballs,
		],
		project,
	)
	if (installed.code !== 0) throw new Error(`npm install: ${installed.err}`)
	writeFileSync(join(project, 'index.ts'), docsExample())
	writeFileSync(join(project, 'wrong.ts'), WRONG)
	server = await startTestServer()
	user = await server.registerUser()
	await server.createUserbot(user)
}, 180_000)

afterAll(() => {
	server?.stop()
	if (project) rmSync(project, { recursive: true, force: true })
})

describe('the packed client in an empty project', () => {
	it('ships compiled ESM with declarations and TDLib types of its own, nothing of Bun or the server', () => {
		const dist = join(project, 'node_modules', '@userbot-gateway', 'client', 'dist')
		expect(existsSync(join(dist, 'index.js'))).toBe(true)
		expect(existsSync(join(dist, 'index.d.ts'))).toBe(true)
		const declarations = readdirSync(dist, { recursive: true })
			.map(String)
			.filter((f) => f.endsWith('.d.ts'))
			.map((f) => readFileSync(join(dist, f), 'utf8'))
			.join('\n')
		expect(declarations).not.toMatch(/from 'tdlib-types'|bun-types|from 'elysia'|from 'bun'|\bBun\./)
		const manifest = JSON.parse(readFileSync(join(dist, '..', 'package.json'), 'utf8'))
		expect(manifest.dependencies ?? {}).toEqual({})
	})

	it("type-checks the docs' example with tsc --strict and the default lib (DOM)", async () => {
		writeFileSync(join(project, 'tsconfig.json'), tsconfig(undefined, false))
		const checked = await run([node, tsc, '-p', '.'], project)
		expect(checked.out + checked.err).toBe('')
		expect(checked.code).toBe(0)
	}, 240_000)

	it('type-checks it without DOM, compiles it, and runs it with plain node against a server', async () => {
		writeFileSync(join(project, 'tsconfig.json'), tsconfig(['ES2022'], true))
		const compiled = await run([node, tsc, '-p', '.'], project)
		expect(compiled.out + compiled.err).toBe('')
		expect(compiled.code).toBe(0)
		const ran = await run([node, join(project, 'out', 'index.js')], project, {
			GATEWAY_URL: server.url,
			GATEWAY_EMAIL: user.email,
			GATEWAY_PASSWORD: user.password,
		})
		expect({ code: ran.code, err: ran.err }).toEqual({ code: 0, err: '' })
		expect(ran.out.trim().split('\n')).toEqual([
			'sent message',
			expect.stringMatching(/^update [1-9][0-9]* updateNewMessage$/),
			'refused Message not found',
		])
	}, 300_000)
})
